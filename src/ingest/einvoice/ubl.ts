/**
 * UBL 2.1 Invoice and CreditNote (Peppol BIS, XRechnung UBL) -> business
 * terms. A credit note names its type code, quantity and lines differently
 * (CreditNoteTypeCode, CreditedQuantity, CreditNoteLine); the rest is alike.
 */
import { defined, inCurrency } from './cii.js';
import { addressOf, amountOf, attributeOf, dateOf, nameOf, textOf, typeCodeOf, type EInvoice, type HeaderTerm, type LineTerm, type TermValue } from './terms.js';
import { at, child, children, type XmlElement } from './xml.js';

export const UBL_INVOICE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE_NAMESPACE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

export function isUbl(root: XmlElement): boolean {
  return (root.local === 'Invoice' && root.uri === UBL_INVOICE_NAMESPACE) || (root.local === 'CreditNote' && root.uri === UBL_CREDIT_NOTE_NAMESPACE);
}

export function readUbl(root: XmlElement): EInvoice {
  const credit = root.local === 'CreditNote';
  const customization = child(root, 'CustomizationID')?.text;
  const kind = credit ? 'UBL 2.1 CreditNote' : 'UBL 2.1 Invoice';
  const version = /xrechnung/i.test(customization ?? '') ? `XRechnung (${kind})` : kind;
  const currency = textOf(child(root, 'DocumentCurrencyCode'));
  const seller = at(root, 'AccountingSupplierParty/Party');
  const buyer = at(root, 'AccountingCustomerParty/Party');
  const totals = child(root, 'LegalMonetaryTotal');
  const header: Partial<Record<HeaderTerm, TermValue | undefined>> = {
    'BT-1': textOf(child(root, 'ID')),
    'BT-2': dateOf(child(root, 'IssueDate')),
    'BT-3': typeCodeOf(child(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')),
    'BT-5': currency,
    // an invoice states it in DueDate; a credit note only in its payment means
    'BT-9': dateOf(child(root, 'DueDate') ?? at(root, 'PaymentMeans/PaymentDueDate')),
    'BT-10': textOf(child(root, 'BuyerReference')),
    'BT-13': textOf(at(root, 'OrderReference/ID')),
    'BT-27': partyName(seller),
    'BG-5': address(seller),
    'BT-31': vatId(seller),
    'BT-44': partyName(buyer),
    'BG-8': address(buyer),
    'BT-48': vatId(buyer),
    'BT-84': textOf(at(root, 'PaymentMeans/PayeeFinancialAccount/ID')),
    'BT-106': amountOf(child(totals, 'LineExtensionAmount')),
    'BT-109': amountOf(child(totals, 'TaxExclusiveAmount')),
    'BT-110': amountOf(inCurrency(children(root, 'TaxTotal').map((total) => child(total, 'TaxAmount')).filter((amount): amount is XmlElement => amount !== undefined), currency?.value)),
    'BT-112': amountOf(child(totals, 'TaxInclusiveAmount')),
    'BT-113': amountOf(child(totals, 'PrepaidAmount')),
    'BT-115': amountOf(child(totals, 'PayableAmount')),
  };
  const lines = children(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((item) => {
    const quantity = child(item, credit ? 'CreditedQuantity' : 'InvoicedQuantity');
    const line: Partial<Record<LineTerm, TermValue | undefined>> = {
      'BT-126': textOf(child(item, 'ID')),
      'BT-153': textOf(at(item, 'Item/Name')),
      'BT-129': textOf(quantity),
      'BT-130': attributeOf(quantity, 'unitCode'),
      'BT-146': amountOf(at(item, 'Price/PriceAmount')),
      'BT-131': amountOf(child(item, 'LineExtensionAmount')),
      'BT-152': textOf(at(item, 'Item/ClassifiedTaxCategory/Percent')),
    };
    return defined(line);
  });
  return { syntax: 'UBL', standard: customization ? `${version}, ${customization}` : version, header: defined(header), lines };
}

/** BT-27/BT-44 is the registered name; a party that gives none is known by its trading name (BT-28/BT-45). */
function partyName(party: XmlElement | undefined): TermValue | undefined {
  return nameOf(at(party, 'PartyLegalEntity/RegistrationName')) ?? nameOf(at(party, 'PartyName/Name'));
}

function address(party: XmlElement | undefined): TermValue | undefined {
  const postal = child(party, 'PostalAddress');
  return addressOf(postal, {
    lines: [child(postal, 'StreetName'), child(postal, 'AdditionalStreetName'), at(postal, 'AddressLine/Line')],
    postcode: child(postal, 'PostalZone'),
    city: child(postal, 'CityName'),
    subdivision: child(postal, 'CountrySubentity'),
    country: at(postal, 'Country/IdentificationCode'),
  });
}

/** The party's VAT identifier: the tax scheme "VAT" entry (another scheme's id is a tax number). */
function vatId(party: XmlElement | undefined): TermValue | undefined {
  const schemes = children(party, 'PartyTaxScheme');
  const vat = schemes.find((scheme) => at(scheme, 'TaxScheme/ID')?.text === 'VAT');
  return textOf(child(vat, 'CompanyID'));
}
