/**
 * UN/CEFACT Cross Industry Invoice -> business terms. Two generations:
 * ZUGFeRD 1.0 (`rsm:CrossIndustryDocument`, namespace
 * urn:ferd:CrossIndustryDocument:invoice:1p0, CII D13B-like element names)
 * and CII D16B (`rsm:CrossIndustryInvoice`, ZUGFeRD 2.x, Factur-X,
 * XRechnung CII). Their structures match term for term under other element
 * names, so each step below names both ("new|old").
 */
import { addressOf, amountOf, attributeOf, dateOf, nameOf, textOf, typeCodeOf, type EInvoice, type HeaderTerm, type LineTerm, type TermValue } from './terms.js';
import { at, child, children, type XmlElement } from './xml.js';

export const CII_NAMESPACE = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
export const ZUGFERD1_NAMESPACE = 'urn:ferd:CrossIndustryDocument:invoice:1p0';

const DOCUMENT = 'ExchangedDocument|HeaderExchangedDocument';
const TRANSACTION = 'SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction';
const AGREEMENT = 'ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement';
const SETTLEMENT = 'ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement';
const SUMMATION = 'SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation';

export function isCii(root: XmlElement): boolean {
  return (root.local === 'CrossIndustryInvoice' && root.uri === CII_NAMESPACE) || (root.local === 'CrossIndustryDocument' && root.uri === ZUGFERD1_NAMESPACE);
}

export function readCii(root: XmlElement): EInvoice {
  const zugferd1 = root.local === 'CrossIndustryDocument';
  const guideline = at(root, 'ExchangedDocumentContext|SpecifiedExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID')?.text;
  const version = zugferd1 ? 'ZUGFeRD 1.0' : /xrechnung/i.test(guideline ?? '') ? 'XRechnung (CII)' : 'ZUGFeRD 2.x / Factur-X (CII D16B)';
  const document = at(root, DOCUMENT);
  const transaction = at(root, TRANSACTION);
  const agreement = at(transaction, AGREEMENT);
  const settlement = at(transaction, SETTLEMENT);
  const summation = at(settlement, SUMMATION);
  const currency = textOf(child(settlement, 'InvoiceCurrencyCode'));
  const seller = child(agreement, 'SellerTradeParty');
  const buyer = child(agreement, 'BuyerTradeParty');
  const account = at(settlement, 'SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount');
  const header: Partial<Record<HeaderTerm, TermValue | undefined>> = {
    'BT-1': textOf(child(document, 'ID')),
    'BT-2': dateOf(at(document, 'IssueDateTime/DateTimeString')),
    'BT-3': typeCodeOf(child(document, 'TypeCode')),
    'BT-5': currency,
    'BT-9': dateOf(at(settlement, 'SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString')),
    'BT-10': textOf(child(agreement, 'BuyerReference')),
    'BT-13': textOf(at(agreement, 'BuyerOrderReferencedDocument/IssuerAssignedID|ID')),
    'BT-27': nameOf(child(seller, 'Name')),
    'BG-5': address(seller),
    'BT-31': vatId(seller),
    'BT-44': nameOf(child(buyer, 'Name')),
    'BG-8': address(buyer),
    'BT-48': vatId(buyer),
    'BT-84': textOf(child(account, 'IBANID', 'ProprietaryID')),
    'BT-106': amountOf(child(summation, 'LineTotalAmount')),
    'BT-109': amountOf(child(summation, 'TaxBasisTotalAmount')),
    'BT-110': amountOf(inCurrency(children(summation, 'TaxTotalAmount'), currency?.value)),
    'BT-112': amountOf(child(summation, 'GrandTotalAmount')),
    'BT-113': amountOf(child(summation, 'TotalPrepaidAmount')),
    'BT-115': amountOf(child(summation, 'DuePayableAmount')),
  };
  const lines = children(transaction, 'IncludedSupplyChainTradeLineItem').map((item) => {
    const delivery = child(item, 'SpecifiedLineTradeDelivery', 'SpecifiedSupplyChainTradeDelivery');
    const lineAgreement = child(item, 'SpecifiedLineTradeAgreement', 'SpecifiedSupplyChainTradeAgreement');
    const lineSettlement = child(item, 'SpecifiedLineTradeSettlement', 'SpecifiedSupplyChainTradeSettlement');
    const quantity = child(delivery, 'BilledQuantity');
    const line: Partial<Record<LineTerm, TermValue | undefined>> = {
      'BT-126': textOf(at(item, 'AssociatedDocumentLineDocument/LineID')),
      'BT-153': textOf(at(item, 'SpecifiedTradeProduct/Name')),
      'BT-129': textOf(quantity),
      'BT-130': attributeOf(quantity, 'unitCode'),
      'BT-146': amountOf(at(lineAgreement, 'NetPriceProductTradePrice/ChargeAmount')),
      'BT-131': amountOf(at(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation|SpecifiedTradeSettlementMonetarySummation/LineTotalAmount')),
      'BT-152': textOf(at(lineSettlement, 'ApplicableTradeTax/RateApplicablePercent|ApplicablePercent')),
    };
    return defined(line);
  });
  return { syntax: 'CII', standard: guideline ? `${version}, ${guideline}` : version, header: defined(header), lines };
}

function address(party: XmlElement | undefined): TermValue | undefined {
  const postal = child(party, 'PostalTradeAddress');
  return addressOf(postal, {
    lines: [child(postal, 'LineOne'), child(postal, 'LineTwo'), child(postal, 'LineThree')],
    postcode: child(postal, 'PostcodeCode'),
    city: child(postal, 'CityName'),
    subdivision: child(postal, 'CountrySubDivisionName'),
    country: child(postal, 'CountryID'),
  });
}

/** The party's VAT identifier: its tax registration with scheme "VA" (a "FC" one is a tax number, not the VAT id). */
function vatId(party: XmlElement | undefined): TermValue | undefined {
  const ids = children(party, 'SpecifiedTaxRegistration').map((registration) => child(registration, 'ID'));
  return textOf(ids.find((id) => id?.attributes.schemeID === 'VA'));
}

/** BT-110 is the VAT total in the invoice currency; a second one in the accounting currency (BT-111) names another currency. */
export function inCurrency(amounts: XmlElement[], currency: string | undefined): XmlElement | undefined {
  return amounts.find((amount) => currency !== undefined && amount.attributes.currencyID === currency) ?? amounts.find((amount) => amount.attributes.currencyID === undefined) ?? amounts[0];
}

export function defined<K extends string>(record: Partial<Record<K, TermValue | undefined>>): Partial<Record<K, TermValue>> {
  const kept: Partial<Record<K, TermValue>> = {};
  for (const [key, value] of Object.entries(record) as Array<[K, TermValue | undefined]>) if (value) kept[key] = value;
  return kept;
}
