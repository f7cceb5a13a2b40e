/**
 * The EN 16931 business terms docshape reads from an e-invoice, and where
 * each syntax writes them: one table for CII and UBL. Per term its
 * identifier (BT-x, and BG-x for a whole postal address), its name in the
 * standard, the plain English label its line on the e-invoice page gets
 * (page.ts), the kind of its value (values.ts), and its path (paths.ts) in
 *
 *   cii         UN/CEFACT CII D16B: ZUGFeRD 2.x, Factur-X, XRechnung CII,
 *               and ZUGFeRD 1.0 too unless `zf1` says otherwise
 *   zf1         ZUGFeRD 1.0 (CII D13B-like names); null: it has no such element
 *   ubl         UBL 2.1 Invoice (Peppol BIS Billing 3.0, XRechnung UBL)
 *   creditNote  UBL 2.1 CreditNote, where it differs from Invoice
 *
 * relative to the element of the term's group. A term's list of paths is
 * tried in order, the first that finds a value wins; a repeating group's
 * instances are those of all its paths. {name} stands for a container
 * that CII D16B and ZUGFeRD 1.0 name differently (CII_CONTAINERS).
 *
 * Sources, checked element by element: the EN 16931-3-3 (CII) and -3-2 (UBL)
 * bindings as the KoSIT XRechnung visualization encodes them
 * (itplr-kosit/xrechnung-visualization src/xsl/cii-xr.xsl,
 * ubl-invoice-xr.xsl, ubl-creditnote-xr.xsl), the CEN/TC 434 validation
 * artefacts (ConnectingEurope/eInvoicing-EN16931), the ZUGFeRD 1.0 schema
 * and Mustang's ZUGFeRD 1 -> 2 migration (ZUGFeRD/mustangproject
 * ZF_10/ZUGFeRD1p0*.xsd, ZF1ToZF2.xsl).
 */
import type { EInvoiceGroup } from '../../document/document.js';
import type { TermKind } from './values.js';

export type { TermKind } from './values.js';

/** The syntaxes a path is written for (read.ts tells them apart by the root element). */
export type Variant = 'cii' | 'zf1' | 'ubl' | 'creditNote';

type Paths = string | readonly string[];

interface Binding {
  cii: Paths | null;
  zf1?: Paths | null;
  ubl: Paths | null;
  creditNote?: Paths | null;
}

export interface TermDef extends Binding {
  id: string;
  /** Its name in EN 16931. */
  name: string;
  /** Its label on the e-invoice page: the plain words invoices print and schemas use. */
  label: string;
  kind: TermKind;
  /** The syntax may state it more than once and each is a value (seller identifiers, item classifications); otherwise the first counts. */
  repeats?: boolean;
  /** Where an identifier's or code's scheme is, from the value's element, in order (default for identifiers: @schemeID). */
  scheme?: readonly string[];
  /** The scheme says which term the value is (a VAT identifier's "VA", a tax number's "FC", a creditor identifier's "SEPA"): the page does not repeat it. */
  schemeSelects?: boolean;
  /** A whole postal address ('address' kind): its parts' terms, in the order street lines, city, post code, subdivision, country. */
  parts?: readonly string[];
  /** An invoice line's term shown as a column of the lines' table (the others precede the table, line by line). */
  column?: boolean;
  /** Not on the page: what the XML says of itself (its process, its specification), which the page's marker names and which no field of a document asks for. */
  offPage?: boolean;
}

export interface GroupDef extends Binding {
  /** "invoice" for the document itself, else the EN 16931 group ("BG-25"). */
  id: string;
  name: string;
  /** The group may occur more than once (lines, allowances, VAT breakdown rows). */
  repeats: boolean;
  terms: readonly TermDef[];
  groups?: readonly GroupDef[];
}

/** What the reader gives: the syntax, the standard the XML names, and its terms. */
export interface EInvoice {
  syntax: 'CII' | 'UBL';
  /** "ZUGFeRD 1.0, urn:ferd:...:comfort", "ZUGFeRD 2.x / Factur-X (CII D16B), urn:cen.eu:en16931:2017", "XRechnung (UBL 2.1 Invoice), ..." */
  standard: string;
  invoice: EInvoiceGroup;
}

/** Containers CII D16B and ZUGFeRD 1.0 name differently (Mustang's ZF1ToZF2.xsl lists the renames). */
export const CII_CONTAINERS: Record<'cii' | 'zf1', Record<string, string>> = {
  cii: {
    context: 'ExchangedDocumentContext',
    document: 'ExchangedDocument',
    transaction: 'SupplyChainTradeTransaction',
    agreement: 'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement',
    delivery: 'SupplyChainTradeTransaction/ApplicableHeaderTradeDelivery',
    settlement: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement',
    totals: 'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation',
    lineAgreement: 'SpecifiedLineTradeAgreement',
    lineDelivery: 'SpecifiedLineTradeDelivery',
    lineSettlement: 'SpecifiedLineTradeSettlement',
    lineTotals: 'SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation',
    rate: 'RateApplicablePercent',
    reference: 'IssuerAssignedID',
    accounting: 'ReceivableSpecifiedTradeAccountingAccount',
  },
  zf1: {
    context: 'SpecifiedExchangedDocumentContext',
    document: 'HeaderExchangedDocument',
    transaction: 'SpecifiedSupplyChainTradeTransaction',
    agreement: 'SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeAgreement',
    delivery: 'SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeDelivery',
    settlement: 'SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeSettlement',
    totals: 'SpecifiedSupplyChainTradeTransaction/ApplicableSupplyChainTradeSettlement/SpecifiedTradeSettlementMonetarySummation',
    lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
    lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
    lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
    lineTotals: 'SpecifiedSupplyChainTradeSettlement/SpecifiedTradeSettlementMonetarySummation',
    rate: 'ApplicablePercent',
    reference: 'ID',
    // ZUGFeRD 1.0 names the buyer's accounting reference SpecifiedTradeAccountingAccount (its settlement also allows the D16B name)
    accounting: 'ReceivableSpecifiedTradeAccountingAccount|SpecifiedTradeAccountingAccount',
  },
};

/** pathsFor's answers: the table is fixed, and a document of thousands of lines asks for the same paths for each. */
const expanded = new Map<Binding, Partial<Record<Variant, readonly string[]>>>();

/** The paths of a term or group in one syntax; empty when the syntax has none. */
export function pathsFor(binding: Binding, variant: Variant): readonly string[] {
  let known = expanded.get(binding);
  if (!known) expanded.set(binding, (known = {}));
  return (known[variant] ??= expand(binding, variant));
}

function expand(binding: Binding, variant: Variant): readonly string[] {
  const chosen = variant === 'zf1' ? (binding.zf1 === undefined ? binding.cii : binding.zf1) : variant === 'creditNote' ? (binding.creditNote === undefined ? binding.ubl : binding.creditNote) : variant === 'cii' ? binding.cii : binding.ubl;
  if (chosen === null) return [];
  const list = typeof chosen === 'string' ? [chosen] : [...chosen];
  if (variant !== 'cii' && variant !== 'zf1') return list;
  const containers = CII_CONTAINERS[variant];
  return list.map((path) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const container = containers[name];
      if (container === undefined) throw new Error(`path ${path}: no container {${name}}`);
      return container;
    }),
  );
}

const FALSE = "('false','0')";
const TRUE = "('true','1')";

// ---------------------------------------------------------------------------
// Shapes several groups share: a postal address, an allowance or charge.

interface AddressIds {
  whole: string;
  name: string;
  label: string;
  line1: string;
  line2: string;
  line3: string;
  city: string;
  postcode: string;
  subdivision: string;
  country: string;
}

/** A postal address's terms (BG-5, BG-8, BG-12, BG-15) under `cii` / `ubl`, the address elements; the whole address first. */
function addressTerms(ids: AddressIds, cii: string, ubl: string): TermDef[] {
  const part = (id: string, name: string, label: string, ciiName: string, ublName: string, zf1: boolean): TermDef => ({ id, name: `${ids.name} ${name}`, label: `${ids.label} ${label}`, kind: id === ids.country ? 'code' : 'text', cii: `${cii}/${ciiName}`, ...(zf1 ? {} : { zf1: null }), ubl: `${ubl}/${ublName}` });
  return [
    { id: ids.whole, name: `${ids.name.toUpperCase()} POSTAL ADDRESS`, label: `${ids.label} address`, kind: 'address', cii, ubl, parts: [ids.line1, ids.line2, ids.line3, ids.city, ids.postcode, ids.subdivision, ids.country] },
    part(ids.line1, 'address line 1', 'address line 1', 'LineOne', 'StreetName', true),
    part(ids.line2, 'address line 2', 'address line 2', 'LineTwo', 'AdditionalStreetName', true),
    part(ids.line3, 'address line 3', 'address line 3', 'LineThree', 'AddressLine/Line', false),
    part(ids.city, 'city', 'city', 'CityName', 'CityName', true),
    part(ids.postcode, 'post code', 'post code', 'PostcodeCode', 'PostalZone', true),
    part(ids.subdivision, 'country subdivision', 'country subdivision', 'CountrySubDivisionName', 'CountrySubentity', false),
    part(ids.country, 'country code', 'country code', 'CountryID', 'Country/IdentificationCode', true),
  ];
}

/** An allowance's or charge's terms (BG-20, BG-21, BG-27, BG-28), ids in the order amount, base, percentage, VAT category, VAT rate, reason, reason code. */
function allowanceChargeTerms(kind: 'allowance' | 'charge', level: 'Document level' | 'Invoice line', ids: string[], withVat: boolean, zf1Logistics = false): TermDef[] {
  const [amount, base, percentage, category, rate, reason, reasonCode] = ids as [string, string, string, string, string, string, string];
  const name = (what: string) => `${level} ${kind} ${what}`;
  const label = (what: string) => `${kind === 'allowance' ? 'Allowance' : 'Charge'} ${what}`;
  // ZUGFeRD 1.0 states a delivery charge as a logistics service charge: its amount, description and tax under other names
  const logistics = (ciiPath: string, other: string) => (zf1Logistics ? { zf1: `${ciiPath}|${other}` } : {});
  const terms: TermDef[] = [
    { id: amount, name: name('amount'), label: label('amount'), kind: 'amount', cii: 'ActualAmount', ...logistics('ActualAmount', 'AppliedAmount'), ubl: 'Amount' },
    { id: base, name: name('base amount'), label: label('base amount'), kind: 'amount', cii: 'BasisAmount', ubl: 'BaseAmount' },
    { id: percentage, name: name('percentage'), label: label('percentage'), kind: 'percentage', cii: 'CalculationPercent', ubl: 'MultiplierFactorNumeric' },
  ];
  if (withVat) {
    terms.push(
      { id: category, name: name('VAT category code'), label: label('VAT category code'), kind: 'code', cii: 'CategoryTradeTax/CategoryCode', ...(zf1Logistics ? { zf1: 'CategoryTradeTax|AppliedTradeTax/CategoryCode' } : {}), ubl: 'TaxCategory/ID' },
      { id: rate, name: name('VAT rate'), label: label('VAT rate'), kind: 'percentage', cii: 'CategoryTradeTax/{rate}', ...(zf1Logistics ? { zf1: 'CategoryTradeTax|AppliedTradeTax/ApplicablePercent' } : {}), ubl: 'TaxCategory/Percent' },
    );
  }
  terms.push(
    { id: reason, name: name('reason'), label: label('reason'), kind: 'text', cii: 'Reason', ...logistics('Reason', 'Description'), ubl: 'AllowanceChargeReason' },
    { id: reasonCode, name: name('reason code'), label: label('reason code'), kind: 'code', cii: 'ReasonCode', ubl: 'AllowanceChargeReasonCode' },
  );
  return terms;
}

// ---------------------------------------------------------------------------
// The table.

const NOTE: GroupDef = {
  id: 'BG-1',
  name: 'INVOICE NOTE',
  repeats: true,
  cii: '{document}/IncludedNote',
  ubl: 'Note',
  terms: [
    { id: 'BT-21', name: 'Invoice note subject code', label: 'Note subject code', kind: 'code', cii: 'SubjectCode', ubl: null },
    { id: 'BT-22', name: 'Invoice note', label: 'Note', kind: 'text', repeats: true, cii: 'Content', ubl: '.' },
  ],
};

const PRECEDING_INVOICE: GroupDef = {
  id: 'BG-3',
  name: 'PRECEDING INVOICE REFERENCE',
  repeats: true,
  cii: '{settlement}/InvoiceReferencedDocument',
  zf1: null,
  ubl: 'BillingReference/InvoiceDocumentReference',
  terms: [
    { id: 'BT-25', name: 'Preceding Invoice reference', label: 'Preceding invoice number', kind: 'identifier', cii: 'IssuerAssignedID', ubl: 'ID' },
    { id: 'BT-26', name: 'Preceding Invoice issue date', label: 'Preceding invoice date', kind: 'date', cii: 'FormattedIssueDateTime/DateTimeString', ubl: 'IssueDate' },
  ],
};

interface TradePartyIds {
  who: 'Seller' | 'Buyer';
  name: string;
  tradingName: string;
  /** Its identifier term: the seller's may repeat, the buyer's not. */
  identifier: TermDef;
  legalId: string;
  vatId: string;
  /** Terms only this party has, after its VAT identifier. */
  extra: TermDef[];
  electronicAddress: string;
  address: AddressIds;
  contact: string;
  phone: string;
  email: string;
}

/** Seller's and buyer's terms (BG-4, BG-7): both parties are written alike in each syntax. */
function tradePartyTerms(p: TradePartyIds): TermDef[] {
  const { who } = p;
  return [
    { id: p.name, name: `${who} name`, label: who, kind: 'text', cii: 'Name', ubl: 'PartyLegalEntity/RegistrationName' },
    { id: p.tradingName, name: `${who} trading name`, label: `${who} trading name`, kind: 'text', cii: 'SpecifiedLegalOrganization/TradingBusinessName', zf1: null, ubl: 'PartyName/Name' },
    p.identifier,
    { id: p.legalId, name: `${who} legal registration identifier`, label: `${who} legal registration ID`, kind: 'identifier', cii: 'SpecifiedLegalOrganization/ID', zf1: null, ubl: 'PartyLegalEntity/CompanyID' },
    { id: p.vatId, name: `${who} VAT identifier`, label: `${who} VAT ID`, kind: 'identifier', schemeSelects: true, cii: "SpecifiedTaxRegistration/ID[@schemeID='VA']", ubl: "PartyTaxScheme[TaxScheme/ID='VAT']/CompanyID" },
    ...p.extra,
    { id: p.electronicAddress, name: `${who} electronic address`, label: `${who} electronic address`, kind: 'identifier', repeats: true, cii: 'URIUniversalCommunication/URIID', zf1: null, ubl: 'EndpointID' },
    ...addressTerms(p.address, 'PostalTradeAddress', 'PostalAddress'),
    // CII names a contact by person and by department: both are the contact point
    { id: p.contact, name: `${who} contact point`, label: `${who} contact`, kind: 'text', repeats: true, cii: 'DefinedTradeContact/PersonName|DepartmentName', ubl: 'Contact/Name' },
    { id: p.phone, name: `${who} contact telephone number`, label: `${who} phone`, kind: 'text', cii: 'DefinedTradeContact/TelephoneUniversalCommunication/CompleteNumber', ubl: 'Contact/Telephone' },
    { id: p.email, name: `${who} contact email address`, label: `${who} email`, kind: 'text', cii: 'DefinedTradeContact/EmailURIUniversalCommunication/URIID', ubl: 'Contact/ElectronicMail' },
  ];
}

const SELLER: GroupDef = {
  id: 'BG-4',
  name: 'SELLER',
  repeats: false,
  cii: '{agreement}/SellerTradeParty',
  ubl: 'AccountingSupplierParty/Party',
  terms: tradePartyTerms({
    who: 'Seller',
    name: 'BT-27',
    tradingName: 'BT-28',
    // a SEPA creditor identifier among the party's identifiers is BT-90
    identifier: { id: 'BT-29', name: 'Seller identifier', label: 'Seller identifier', kind: 'identifier', repeats: true, cii: 'ID|GlobalID', ubl: "PartyIdentification/ID[@schemeID!='SEPA']" },
    legalId: 'BT-30',
    vatId: 'BT-31',
    extra: [
      { id: 'BT-32', name: 'Seller tax registration identifier', label: 'Seller tax registration ID', kind: 'identifier', schemeSelects: true, cii: "SpecifiedTaxRegistration/ID[@schemeID='FC']", ubl: "PartyTaxScheme[TaxScheme/ID!='VAT']/CompanyID" },
      { id: 'BT-33', name: 'Seller additional legal information', label: 'Seller additional legal information', kind: 'text', cii: 'Description', zf1: null, ubl: 'PartyLegalEntity/CompanyLegalForm' },
    ],
    electronicAddress: 'BT-34',
    address: { whole: 'BG-5', name: 'Seller', label: 'Seller', line1: 'BT-35', line2: 'BT-36', line3: 'BT-162', city: 'BT-37', postcode: 'BT-38', subdivision: 'BT-39', country: 'BT-40' },
    contact: 'BT-41',
    phone: 'BT-42',
    email: 'BT-43',
  }),
};

const BUYER: GroupDef = {
  id: 'BG-7',
  name: 'BUYER',
  repeats: false,
  cii: '{agreement}/BuyerTradeParty',
  ubl: 'AccountingCustomerParty/Party',
  terms: tradePartyTerms({
    who: 'Buyer',
    name: 'BT-44',
    tradingName: 'BT-45',
    identifier: { id: 'BT-46', name: 'Buyer identifier', label: 'Buyer identifier', kind: 'identifier', cii: ['GlobalID', 'ID'], ubl: 'PartyIdentification/ID' },
    legalId: 'BT-47',
    vatId: 'BT-48',
    extra: [],
    electronicAddress: 'BT-49',
    address: { whole: 'BG-8', name: 'Buyer', label: 'Buyer', line1: 'BT-50', line2: 'BT-51', line3: 'BT-163', city: 'BT-52', postcode: 'BT-53', subdivision: 'BT-54', country: 'BT-55' },
    contact: 'BT-56',
    phone: 'BT-57',
    email: 'BT-58',
  }),
};

const PAYEE: GroupDef = {
  id: 'BG-10',
  name: 'PAYEE',
  repeats: false,
  cii: '{settlement}/PayeeTradeParty',
  ubl: 'PayeeParty',
  terms: [
    { id: 'BT-59', name: 'Payee name', label: 'Payee', kind: 'text', cii: 'Name', ubl: 'PartyName/Name' },
    { id: 'BT-60', name: 'Payee identifier', label: 'Payee identifier', kind: 'identifier', cii: ['GlobalID', 'ID'], ubl: "PartyIdentification/ID[@schemeID!='SEPA']" },
    { id: 'BT-61', name: 'Payee legal registration identifier', label: 'Payee legal registration ID', kind: 'identifier', cii: 'SpecifiedLegalOrganization/ID', zf1: null, ubl: 'PartyLegalEntity/CompanyID' },
  ],
};

const TAX_REPRESENTATIVE: GroupDef = {
  id: 'BG-11',
  name: 'SELLER TAX REPRESENTATIVE PARTY',
  repeats: false,
  cii: '{agreement}/SellerTaxRepresentativeTradeParty',
  zf1: null,
  ubl: 'TaxRepresentativeParty',
  terms: [
    { id: 'BT-62', name: 'Seller tax representative name', label: 'Seller tax representative', kind: 'text', cii: 'Name', ubl: 'PartyName/Name' },
    { id: 'BT-63', name: 'Seller tax representative VAT identifier', label: 'Tax representative VAT ID', kind: 'identifier', schemeSelects: true, cii: "SpecifiedTaxRegistration/ID[@schemeID='VA']", ubl: "PartyTaxScheme[TaxScheme/ID='VAT']/CompanyID" },
    ...addressTerms({ whole: 'BG-12', name: 'Tax representative', label: 'Tax representative', line1: 'BT-64', line2: 'BT-65', line3: 'BT-164', city: 'BT-66', postcode: 'BT-67', subdivision: 'BT-68', country: 'BT-69' }, 'PostalTradeAddress', 'PostalAddress'),
  ],
};

/** BG-13 with its invoicing period (BG-14) and deliver-to address (BG-15); CII states the period in the settlement, so the group reads from the invoice. */
const DELIVERY: GroupDef = {
  id: 'BG-13',
  name: 'DELIVERY INFORMATION',
  repeats: false,
  cii: '.',
  ubl: '.',
  terms: [
    { id: 'BT-70', name: 'Deliver to party name', label: 'Deliver to', kind: 'text', cii: '{delivery}/ShipToTradeParty/Name', ubl: 'Delivery/DeliveryParty/PartyName/Name' },
    { id: 'BT-71', name: 'Deliver to location identifier', label: 'Delivery location ID', kind: 'identifier', cii: ['{delivery}/ShipToTradeParty/GlobalID', '{delivery}/ShipToTradeParty/ID'], ubl: 'Delivery/DeliveryLocation/ID' },
    { id: 'BT-72', name: 'Actual delivery date', label: 'Delivery date', kind: 'date', cii: '{delivery}/ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString', ubl: 'Delivery/ActualDeliveryDate' },
    { id: 'BT-73', name: 'Invoicing period start date', label: 'Invoicing period start', kind: 'date', cii: '{settlement}/BillingSpecifiedPeriod/StartDateTime/DateTimeString', ubl: 'InvoicePeriod/StartDate' },
    { id: 'BT-74', name: 'Invoicing period end date', label: 'Invoicing period end', kind: 'date', cii: '{settlement}/BillingSpecifiedPeriod/EndDateTime/DateTimeString', ubl: 'InvoicePeriod/EndDate' },
    ...addressTerms({ whole: 'BG-15', name: 'Deliver to', label: 'Delivery', line1: 'BT-75', line2: 'BT-76', line3: 'BT-165', city: 'BT-77', postcode: 'BT-78', subdivision: 'BT-79', country: 'BT-80' }, '{delivery}/ShipToTradeParty/PostalTradeAddress', 'Delivery/DeliveryLocation/Address'),
  ],
};

/** BG-16 once per payment means the XML states, each with its credit transfer accounts (BG-17), card (BG-18) and debited account (BG-19). */
const PAYMENT: GroupDef = {
  id: 'BG-16',
  name: 'PAYMENT INSTRUCTIONS',
  repeats: true,
  cii: '{settlement}/SpecifiedTradeSettlementPaymentMeans',
  ubl: 'PaymentMeans',
  terms: [
    { id: 'BT-81', name: 'Payment means type code', label: 'Payment means code', kind: 'code', cii: 'TypeCode', ubl: 'PaymentMeansCode' },
    { id: 'BT-82', name: 'Payment means text', label: 'Payment means', kind: 'text', cii: 'Information', ubl: 'PaymentMeansCode/@name' },
    { id: 'BT-87', name: 'Payment card primary account number', label: 'Card number', kind: 'text', cii: 'ApplicableTradeSettlementFinancialCard/ID', zf1: null, ubl: 'CardAccount/PrimaryAccountNumberID' },
    { id: 'BT-88', name: 'Payment card holder name', label: 'Card holder', kind: 'text', cii: 'ApplicableTradeSettlementFinancialCard/CardholderName', zf1: null, ubl: 'CardAccount/HolderName' },
    { id: 'BT-91', name: 'Debited account identifier', label: 'Debited account', kind: 'identifier', cii: 'PayerPartyDebtorFinancialAccount/IBANID', ubl: 'PaymentMandate/PayerFinancialAccount/ID' },
  ],
  groups: [
    {
      id: 'BG-17',
      name: 'CREDIT TRANSFER',
      repeats: true,
      cii: 'PayeePartyCreditorFinancialAccount',
      ubl: 'PayeeFinancialAccount',
      terms: [
        { id: 'BT-84', name: 'Payment account identifier', label: 'IBAN', kind: 'identifier', cii: ['IBANID', 'ProprietaryID'], ubl: 'ID' },
        { id: 'BT-85', name: 'Payment account name', label: 'Account name', kind: 'text', cii: 'AccountName', ubl: 'Name' },
        // CII states the bank beside the account, UBL in it
        { id: 'BT-86', name: 'Payment service provider identifier', label: 'BIC', kind: 'identifier', cii: '../PayeeSpecifiedCreditorFinancialInstitution/BICID', ubl: 'FinancialInstitutionBranch/ID' },
      ],
    },
  ],
};

const ALLOWANCE: GroupDef = {
  id: 'BG-20',
  name: 'DOCUMENT LEVEL ALLOWANCES',
  repeats: true,
  cii: `{settlement}/SpecifiedTradeAllowanceCharge[ChargeIndicator/Indicator=${FALSE}]`,
  ubl: `AllowanceCharge[ChargeIndicator=${FALSE}]`,
  terms: allowanceChargeTerms('allowance', 'Document level', ['BT-92', 'BT-93', 'BT-94', 'BT-95', 'BT-96', 'BT-97', 'BT-98'], true),
};

const CHARGE: GroupDef = {
  id: 'BG-21',
  name: 'DOCUMENT LEVEL CHARGES',
  repeats: true,
  cii: `{settlement}/SpecifiedTradeAllowanceCharge[ChargeIndicator/Indicator=${TRUE}]`,
  zf1: [`{settlement}/SpecifiedTradeAllowanceCharge[ChargeIndicator/Indicator=${TRUE}]`, '{settlement}/SpecifiedLogisticsServiceCharge'],
  ubl: `AllowanceCharge[ChargeIndicator=${TRUE}]`,
  terms: allowanceChargeTerms('charge', 'Document level', ['BT-99', 'BT-100', 'BT-101', 'BT-102', 'BT-103', 'BT-104', 'BT-105'], true, true),
};

/** BG-22; UBL states the VAT totals apart from the other totals, so the group reads from the invoice. */
const TOTALS: GroupDef = {
  id: 'BG-22',
  name: 'DOCUMENT TOTALS',
  repeats: false,
  cii: '.',
  ubl: '.',
  terms: [
    // the grand total first: of two labels a schema's "total" reads equally well, the first wins
    { id: 'BT-112', name: 'Invoice total amount with VAT', label: 'Total amount with VAT', kind: 'amount', cii: '{totals}/GrandTotalAmount', ubl: 'LegalMonetaryTotal/TaxInclusiveAmount' },
    { id: 'BT-109', name: 'Invoice total amount without VAT', label: 'Total amount without VAT', kind: 'amount', cii: '{totals}/TaxBasisTotalAmount', ubl: 'LegalMonetaryTotal/TaxExclusiveAmount' },
    { id: 'BT-106', name: 'Sum of Invoice line net amount', label: 'Sum of line net amounts', kind: 'amount', cii: '{totals}/LineTotalAmount', ubl: 'LegalMonetaryTotal/LineExtensionAmount' },
    // the VAT total in the invoice's currency; one in another currency is BT-111 (in the VAT accounting currency)
    { id: 'BT-110', name: 'Invoice total VAT amount', label: 'VAT total', kind: 'amount', cii: ['{totals}/TaxTotalAmount[@currencyID=$BT-5]', '{totals}/TaxTotalAmount[@currencyID!=$BT-6]'], ubl: ['TaxTotal/TaxAmount[@currencyID=$BT-5]', 'TaxTotal/TaxAmount[@currencyID!=$BT-6]'] },
    { id: 'BT-113', name: 'Paid amount', label: 'Paid amount', kind: 'amount', cii: '{totals}/TotalPrepaidAmount', ubl: 'LegalMonetaryTotal/PrepaidAmount' },
    { id: 'BT-115', name: 'Amount due for payment', label: 'Amount due for payment', kind: 'amount', cii: '{totals}/DuePayableAmount', ubl: 'LegalMonetaryTotal/PayableAmount' },
    { id: 'BT-107', name: 'Sum of allowances on document level', label: 'Sum of allowances', kind: 'amount', cii: '{totals}/AllowanceTotalAmount', ubl: 'LegalMonetaryTotal/AllowanceTotalAmount' },
    { id: 'BT-108', name: 'Sum of charges on document level', label: 'Sum of charges', kind: 'amount', cii: '{totals}/ChargeTotalAmount', ubl: 'LegalMonetaryTotal/ChargeTotalAmount' },
    { id: 'BT-111', name: 'Invoice total VAT amount in accounting currency', label: 'VAT total in accounting currency', kind: 'amount', cii: '{totals}/TaxTotalAmount[@currencyID=$BT-6]', ubl: 'TaxTotal/TaxAmount[@currencyID=$BT-6]' },
    { id: 'BT-114', name: 'Rounding amount', label: 'Rounding amount', kind: 'amount', cii: '{totals}/RoundingAmount', zf1: null, ubl: 'LegalMonetaryTotal/PayableRoundingAmount' },
  ],
};

const VAT_BREAKDOWN: GroupDef = {
  id: 'BG-23',
  name: 'VAT BREAKDOWN',
  repeats: true,
  cii: '{settlement}/ApplicableTradeTax',
  ubl: 'TaxTotal/TaxSubtotal',
  terms: [
    { id: 'BT-118', name: 'VAT category code', label: 'VAT category code', kind: 'code', cii: 'CategoryCode', ubl: 'TaxCategory/ID' },
    { id: 'BT-119', name: 'VAT category rate', label: 'VAT category rate', kind: 'percentage', cii: '{rate}', ubl: 'TaxCategory/Percent' },
    { id: 'BT-116', name: 'VAT category taxable amount', label: 'VAT category taxable amount', kind: 'amount', cii: 'BasisAmount', ubl: 'TaxableAmount' },
    { id: 'BT-117', name: 'VAT category tax amount', label: 'VAT category tax amount', kind: 'amount', cii: 'CalculatedAmount', ubl: 'TaxAmount' },
    { id: 'BT-120', name: 'VAT exemption reason text', label: 'VAT exemption reason', kind: 'text', cii: 'ExemptionReason', ubl: 'TaxCategory/TaxExemptionReason' },
    { id: 'BT-121', name: 'VAT exemption reason code', label: 'VAT exemption reason code', kind: 'code', cii: 'ExemptionReasonCode', zf1: null, ubl: 'TaxCategory/TaxExemptionReasonCode' },
  ],
};

const SUPPORTING_DOCUMENT: GroupDef = {
  id: 'BG-24',
  name: 'ADDITIONAL SUPPORTING DOCUMENTS',
  repeats: true,
  cii: "{agreement}/AdditionalReferencedDocument[TypeCode='916']",
  zf1: null,
  // an invoiced object (130) and, in a credit note, the project (50) are references of their own (BT-18, BT-11)
  ubl: "AdditionalDocumentReference[DocumentTypeCode!=('130','50')]",
  terms: [
    { id: 'BT-122', name: 'Supporting document reference', label: 'Supporting document', kind: 'identifier', cii: 'IssuerAssignedID', ubl: 'ID' },
    { id: 'BT-123', name: 'Supporting document description', label: 'Supporting document description', kind: 'text', cii: 'Name', ubl: 'DocumentDescription' },
    { id: 'BT-124', name: 'External document location', label: 'Supporting document location', kind: 'text', cii: 'URIID', ubl: 'Attachment/ExternalReference/URI' },
  ],
};

const LINE: GroupDef = {
  id: 'BG-25',
  name: 'INVOICE LINE',
  repeats: true,
  cii: '{transaction}/IncludedSupplyChainTradeLineItem',
  ubl: 'InvoiceLine',
  creditNote: 'CreditNoteLine',
  terms: [
    { id: 'BT-126', name: 'Invoice line identifier', label: 'Line', kind: 'identifier', column: true, cii: 'AssociatedDocumentLineDocument/LineID', ubl: 'ID' },
    { id: 'BT-153', name: 'Item name', label: 'Item name', kind: 'text', column: true, cii: 'SpecifiedTradeProduct/Name', ubl: 'Item/Name' },
    { id: 'BT-155', name: "Item Seller's identifier", label: 'Item ID', kind: 'identifier', column: true, cii: 'SpecifiedTradeProduct/SellerAssignedID', ubl: 'Item/SellersItemIdentification/ID' },
    { id: 'BT-129', name: 'Invoiced quantity', label: 'Quantity', kind: 'quantity', column: true, cii: '{lineDelivery}/BilledQuantity', ubl: 'InvoicedQuantity', creditNote: 'CreditedQuantity' },
    { id: 'BT-130', name: 'Invoiced quantity unit of measure code', label: 'Unit', kind: 'code', column: true, cii: '{lineDelivery}/BilledQuantity/@unitCode', ubl: 'InvoicedQuantity/@unitCode', creditNote: 'CreditedQuantity/@unitCode' },
    { id: 'BT-146', name: 'Item net price', label: 'Unit price', kind: 'amount', column: true, cii: '{lineAgreement}/NetPriceProductTradePrice/ChargeAmount', ubl: 'Price/PriceAmount' },
    { id: 'BT-131', name: 'Invoice line net amount', label: 'Net amount', kind: 'amount', column: true, cii: '{lineTotals}/LineTotalAmount', ubl: 'LineExtensionAmount' },
    { id: 'BT-152', name: 'Invoiced item VAT rate', label: 'VAT rate', kind: 'percentage', column: true, cii: '{lineSettlement}/ApplicableTradeTax/{rate}', ubl: 'Item/ClassifiedTaxCategory/Percent' },
    { id: 'BT-151', name: 'Invoiced item VAT category code', label: 'VAT category code', kind: 'code', cii: '{lineSettlement}/ApplicableTradeTax/CategoryCode', ubl: 'Item/ClassifiedTaxCategory/ID' },
    { id: 'BT-154', name: 'Item description', label: 'item description', kind: 'text', cii: 'SpecifiedTradeProduct/Description', ubl: 'Item/Description' },
    { id: 'BT-127', name: 'Invoice line note', label: 'note', kind: 'text', cii: 'AssociatedDocumentLineDocument/IncludedNote/Content', ubl: 'Note' },
    { id: 'BT-156', name: "Item Buyer's identifier", label: "buyer's item ID", kind: 'identifier', cii: 'SpecifiedTradeProduct/BuyerAssignedID', ubl: 'Item/BuyersItemIdentification/ID' },
    { id: 'BT-157', name: 'Item standard identifier', label: 'standard item ID', kind: 'identifier', cii: 'SpecifiedTradeProduct/GlobalID', ubl: 'Item/StandardItemIdentification/ID' },
    { id: 'BT-158', name: 'Item classification identifier', label: 'item classification', kind: 'identifier', repeats: true, scheme: ['@listID'], cii: 'SpecifiedTradeProduct/DesignatedProductClassification/ClassCode', ubl: 'Item/CommodityClassification/ItemClassificationCode' },
    { id: 'BT-159', name: 'Item country of origin', label: 'item country of origin', kind: 'code', cii: 'SpecifiedTradeProduct/OriginTradeCountry/ID', ubl: 'Item/OriginCountry/IdentificationCode' },
    { id: 'BT-128', name: 'Invoice line object identifier', label: 'object ID', kind: 'identifier', repeats: true, scheme: ['@schemeID', '../ReferenceTypeCode'], cii: "{lineSettlement}/AdditionalReferencedDocument[TypeCode='130']/IssuerAssignedID", zf1: null, ubl: "DocumentReference[DocumentTypeCode='130']/ID" },
    { id: 'BT-132', name: 'Referenced purchase order line reference', label: 'order line reference', kind: 'identifier', cii: '{lineAgreement}/BuyerOrderReferencedDocument/LineID', ubl: 'OrderLineReference/LineID' },
    { id: 'BT-133', name: 'Invoice line Buyer accounting reference', label: 'accounting reference', kind: 'text', cii: '{lineSettlement}/{accounting}/ID', ubl: 'AccountingCost' },
    { id: 'BT-134', name: 'Invoice line period start date', label: 'period start', kind: 'date', cii: '{lineSettlement}/BillingSpecifiedPeriod/StartDateTime/DateTimeString', ubl: 'InvoicePeriod/StartDate' },
    { id: 'BT-135', name: 'Invoice line period end date', label: 'period end', kind: 'date', cii: '{lineSettlement}/BillingSpecifiedPeriod/EndDateTime/DateTimeString', ubl: 'InvoicePeriod/EndDate' },
    { id: 'BT-148', name: 'Item gross price', label: 'gross price', kind: 'amount', cii: '{lineAgreement}/GrossPriceProductTradePrice/ChargeAmount', ubl: 'Price/AllowanceCharge/BaseAmount' },
    { id: 'BT-147', name: 'Item price discount', label: 'price discount', kind: 'amount', repeats: true, cii: `{lineAgreement}/GrossPriceProductTradePrice/AppliedTradeAllowanceCharge[ChargeIndicator/Indicator=${FALSE}]/ActualAmount`, ubl: `Price/AllowanceCharge[ChargeIndicator=${FALSE}]/Amount` },
    { id: 'BT-149', name: 'Item price base quantity', label: 'price base quantity', kind: 'quantity', cii: ['{lineAgreement}/NetPriceProductTradePrice/BasisQuantity', '{lineAgreement}/GrossPriceProductTradePrice/BasisQuantity'], ubl: 'Price/BaseQuantity' },
    { id: 'BT-150', name: 'Item price base quantity unit of measure code', label: 'price base quantity unit', kind: 'code', cii: ['{lineAgreement}/NetPriceProductTradePrice/BasisQuantity/@unitCode', '{lineAgreement}/GrossPriceProductTradePrice/BasisQuantity/@unitCode'], ubl: 'Price/BaseQuantity/@unitCode' },
  ],
  groups: [
    {
      id: 'BG-27',
      name: 'INVOICE LINE ALLOWANCES',
      repeats: true,
      cii: `{lineSettlement}/SpecifiedTradeAllowanceCharge[ChargeIndicator/Indicator=${FALSE}]`,
      ubl: `AllowanceCharge[ChargeIndicator=${FALSE}]`,
      terms: allowanceChargeTerms('allowance', 'Invoice line', ['BT-136', 'BT-137', 'BT-138', '', '', 'BT-139', 'BT-140'], false),
    },
    {
      id: 'BG-28',
      name: 'INVOICE LINE CHARGES',
      repeats: true,
      cii: `{lineSettlement}/SpecifiedTradeAllowanceCharge[ChargeIndicator/Indicator=${TRUE}]`,
      ubl: `AllowanceCharge[ChargeIndicator=${TRUE}]`,
      terms: allowanceChargeTerms('charge', 'Invoice line', ['BT-141', 'BT-142', 'BT-143', '', '', 'BT-144', 'BT-145'], false),
    },
    {
      id: 'BG-32',
      name: 'ITEM ATTRIBUTES',
      repeats: true,
      cii: 'SpecifiedTradeProduct/ApplicableProductCharacteristic',
      ubl: 'Item/AdditionalItemProperty',
      terms: [
        { id: 'BT-160', name: 'Item attribute name', label: 'item attribute', kind: 'text', cii: 'Description', ubl: 'Name' },
        { id: 'BT-161', name: 'Item attribute value', label: 'item attribute value', kind: 'text', cii: 'Value', ubl: 'Value' },
      ],
    },
  ],
};

/** The invoice: its own terms (BG-2 process control, the references, the payment terms and what identifies a direct debit), then its groups. */
export const INVOICE: GroupDef = {
  id: 'invoice',
  name: 'INVOICE',
  repeats: false,
  cii: '.',
  ubl: '.',
  terms: [
    { id: 'BT-1', name: 'Invoice number', label: 'Invoice number', kind: 'identifier', cii: '{document}/ID', ubl: 'ID' },
    { id: 'BT-2', name: 'Invoice issue date', label: 'Invoice date', kind: 'date', cii: '{document}/IssueDateTime/DateTimeString', ubl: 'IssueDate' },
    { id: 'BT-3', name: 'Invoice type code', label: 'Document type code', kind: 'code', cii: '{document}/TypeCode', ubl: 'InvoiceTypeCode', creditNote: 'CreditNoteTypeCode' },
    { id: 'BT-5', name: 'Invoice currency code', label: 'Currency', kind: 'code', cii: '{settlement}/InvoiceCurrencyCode', ubl: 'DocumentCurrencyCode' },
    { id: 'BT-6', name: 'VAT accounting currency code', label: 'VAT accounting currency', kind: 'code', cii: '{settlement}/TaxCurrencyCode', zf1: null, ubl: 'TaxCurrencyCode' },
    { id: 'BT-7', name: 'Value added tax point date', label: 'VAT point date', kind: 'date', cii: '{settlement}/ApplicableTradeTax/TaxPointDate/DateString', zf1: null, ubl: 'TaxPointDate' },
    { id: 'BT-8', name: 'Value added tax point date code', label: 'VAT point date code', kind: 'code', cii: '{settlement}/ApplicableTradeTax/DueDateTypeCode', zf1: null, ubl: 'InvoicePeriod/DescriptionCode' },
    // a UBL credit note has no DueDate: its payment means state it
    { id: 'BT-9', name: 'Payment due date', label: 'Due date', kind: 'date', repeats: true, cii: '{settlement}/SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString', ubl: 'DueDate', creditNote: 'PaymentMeans/PaymentDueDate' },
    { id: 'BT-10', name: 'Buyer reference', label: 'Buyer reference', kind: 'text', cii: '{agreement}/BuyerReference', ubl: 'BuyerReference' },
    // UBL 2.1 CreditNote has no ProjectReference: a document reference of type 50 carries it
    { id: 'BT-11', name: 'Project reference', label: 'Project reference', kind: 'identifier', cii: '{agreement}/SpecifiedProcuringProject/ID', zf1: null, ubl: 'ProjectReference/ID', creditNote: "AdditionalDocumentReference[DocumentTypeCode='50']/ID" },
    { id: 'BT-12', name: 'Contract reference', label: 'Contract reference', kind: 'identifier', cii: '{agreement}/ContractReferencedDocument/{reference}', ubl: 'ContractDocumentReference/ID' },
    { id: 'BT-13', name: 'Purchase order reference', label: 'Purchase order reference', kind: 'identifier', cii: '{agreement}/BuyerOrderReferencedDocument/{reference}', ubl: 'OrderReference/ID' },
    { id: 'BT-14', name: 'Sales order reference', label: 'Sales order reference', kind: 'identifier', cii: '{agreement}/SellerOrderReferencedDocument/IssuerAssignedID', zf1: null, ubl: 'OrderReference/SalesOrderID' },
    { id: 'BT-15', name: 'Receiving advice reference', label: 'Receiving advice reference', kind: 'identifier', cii: '{delivery}/ReceivingAdviceReferencedDocument/{reference}', ubl: 'ReceiptDocumentReference/ID' },
    { id: 'BT-16', name: 'Despatch advice reference', label: 'Despatch advice reference', kind: 'identifier', cii: '{delivery}/DespatchAdviceReferencedDocument/{reference}', ubl: 'DespatchDocumentReference/ID' },
    { id: 'BT-17', name: 'Tender or lot reference', label: 'Tender or lot reference', kind: 'identifier', cii: "{agreement}/AdditionalReferencedDocument[TypeCode='50']/IssuerAssignedID", zf1: null, ubl: 'OriginatorDocumentReference/ID' },
    { id: 'BT-18', name: 'Invoiced object identifier', label: 'Invoiced object identifier', kind: 'identifier', scheme: ['@schemeID', '../ReferenceTypeCode'], cii: "{agreement}/AdditionalReferencedDocument[TypeCode='130']/IssuerAssignedID", zf1: null, ubl: "AdditionalDocumentReference[DocumentTypeCode='130']/ID" },
    { id: 'BT-19', name: 'Buyer accounting reference', label: 'Buyer accounting reference', kind: 'text', cii: '{settlement}/{accounting}/ID', ubl: 'AccountingCost' },
    { id: 'BT-20', name: 'Payment terms', label: 'Payment terms', kind: 'text', repeats: true, cii: '{settlement}/SpecifiedTradePaymentTerms/Description', ubl: 'PaymentTerms/Note' },
    { id: 'BT-83', name: 'Remittance information', label: 'Remittance information', kind: 'text', cii: '{settlement}/PaymentReference', ubl: 'PaymentMeans/PaymentID' },
    { id: 'BT-89', name: 'Mandate reference identifier', label: 'Mandate reference', kind: 'identifier', cii: '{settlement}/SpecifiedTradePaymentTerms/DirectDebitMandateID', zf1: null, ubl: 'PaymentMeans/PaymentMandate/ID' },
    { id: 'BT-90', name: 'Bank assigned creditor identifier', label: 'Creditor identifier', kind: 'identifier', schemeSelects: true, cii: '{settlement}/CreditorReferenceID', zf1: null, ubl: ["PayeeParty/PartyIdentification/ID[@schemeID='SEPA']", "AccountingSupplierParty/Party/PartyIdentification/ID[@schemeID='SEPA']"] },
    { id: 'BT-23', name: 'Business process type', label: 'Business process', kind: 'text', offPage: true, cii: '{context}/BusinessProcessSpecifiedDocumentContextParameter/ID', ubl: 'ProfileID' },
    { id: 'BT-24', name: 'Specification identifier', label: 'Specification identifier', kind: 'identifier', offPage: true, cii: '{context}/GuidelineSpecifiedDocumentContextParameter/ID', ubl: 'CustomizationID' },
  ],
  groups: [NOTE, PRECEDING_INVOICE, SELLER, BUYER, PAYEE, TAX_REPRESENTATIVE, DELIVERY, PAYMENT, ALLOWANCE, CHARGE, TOTALS, VAT_BREAKDOWN, SUPPORTING_DOCUMENT, LINE],
};

/** Every term of the table by identifier (for names and labels), and the group each belongs to. */
export const TERMS: ReadonlyMap<string, TermDef & { group: string }> = (() => {
  const all = new Map<string, TermDef & { group: string }>();
  const visit = (group: GroupDef) => {
    for (const term of group.terms) {
      if (all.has(term.id)) throw new Error(`term ${term.id} twice in the table`);
      all.set(term.id, { ...term, group: group.id });
    }
    for (const inner of group.groups ?? []) visit(inner);
  };
  visit(INVOICE);
  return all;
})();
