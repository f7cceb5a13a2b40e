import { expect } from 'chai';
import { documentGroups, documentNumberField, issuerField, producerKey, sourceFamily, unitsSharingDocuments } from '../../scripts/eval/groups.js';

describe('eval document groups (a producer or layout left out together)', () => {
  it('finds the issuer and the document number among label fields', () => {
    expect(issuerField(['date', 'company', 'total'])).to.equal('company');
    expect(issuerField(['store_name', 'store_address'])).to.equal('store_name');
    expect(issuerField(['invoice_number', 'seller', 'buyer'])).to.equal('seller');
    expect(issuerField(['effective_date', 'party'])).to.equal(undefined);
    expect(documentNumberField(['invoice_date', 'invoice_number'])).to.equal('invoice_number');
    expect(documentNumberField(['phone', 'total'])).to.equal(undefined);
  });

  it('keys a producer without case, punctuation or a parenthesised branch, and a file by its family', () => {
    expect(producerKey('MR. D.I.Y. (JOHOR) SDN BHD')).to.equal(producerKey('MR D.I.Y. (M) SDN. BHD.'));
    expect(producerKey('Müller GmbH')).to.equal('müllergmbh');
    expect(sourceFamily('zugferd_2p0_BASIC_Taxifahrt.pdf')).to.equal('zugferd 2p0');
    expect(sourceFamily('EN16931_Miete.pdf')).to.equal('en16931');
    expect(sourceFamily('Report-20170509_505.pdf')).to.equal('report');
  });

  it('groups receipts by their store, and documents with nothing in common one by one', () => {
    const receipts = documentGroups([
      { id: 'r1', expected: { company: 'ACME (KL) SDN BHD', total: '1.00' } },
      { id: 'r2', expected: { company: 'Acme (Penang) Sdn. Bhd.', total: '2.00' } },
      { id: 'r3', expected: { company: 'Other Store', total: '3.00' } },
    ]);
    expect(receipts.groupOf.get('r1')).to.equal(receipts.groupOf.get('r2'));
    expect(receipts.groupOf.get('r3')).to.not.equal(receipts.groupOf.get('r1'));
    expect(receipts.linkedBy).to.deep.equal(['producer']);
    const contracts = documentGroups([{ id: 'a', expected: { party: ['X'] } }, { id: 'b', expected: { party: ['X'] } }]);
    expect(new Set(contracts.groupOf.values()).size).to.equal(2);
    expect(contracts.linkedBy).to.deep.equal([]);
  });

  it('keeps variants, a source file family, a seller and an invoice issued in two profiles together', () => {
    const invoice = (id: string, file: string, seller: string | null, number: string) => ({ id, manifest: { source_file: file }, expected: { invoice_number: number, seller } });
    const { groupOf, linkedBy } = documentGroups([
      invoice('a', 'genA_2p0_Goods.pdf', 'Supplier One', 'R-1'),
      invoice('a_scan', 'genA_2p0_Goods.pdf', 'Supplier One', 'R-1'),
      // the same invoice in another profile, seller not labelled: joined by its number
      invoice('b', 'genA_1p0_Goods.pdf', null, 'R-1'),
      // another generator, same seller as a: joined by the seller
      invoice('c', 'Other_Invoice.pdf', 'SUPPLIER ONE', 'X-9'),
      // same family as c, nothing else in common
      invoice('d', 'Other_Credit.pdf', 'Third Party', 'Y-2'),
      invoice('e', 'Lonely.pdf', 'Fourth', 'Z-3'),
      invoice('e_scan', 'Lonely.pdf', 'Fourth', 'Z-3'),
    ]);
    const group = (id: string) => groupOf.get(id);
    for (const id of ['a_scan', 'b', 'c', 'd']) expect(group(id), id).to.equal(group('a'));
    expect(group('e')).to.equal(group('e_scan')).and.to.not.equal(group('a'));
    expect(linkedBy).to.deep.equal(['source file family', 'producer', 'document number']);
  });

  it('leaves out together the groups of two datasets that hold the same document', () => {
    const unitOf = unitsSharingDocuments([
      { group: 'headers/alpha', document: 'doc1' },
      { group: 'headers/beta', document: 'doc2' },
      { group: 'lines/gamma', document: 'doc1' },
      { group: 'lines/delta', document: 'doc3' },
    ]);
    expect(unitOf('lines/gamma')).to.equal(unitOf('headers/alpha'));
    expect(unitOf('headers/beta')).to.not.equal(unitOf('headers/alpha'));
    expect(unitOf('lines/delta')).to.not.equal(unitOf('headers/alpha'));
  });
});
