/** Spanish: factura, factura rectificativa, abono. */
import type { LanguageTable } from './language.js';

export const SPANISH: LanguageTable = {
  code: 'es',
  concepts: {
    total: {
      triggers: ['importe total', 'total factura', 'total a pagar'],
      labels: ['importe total', 'total factura', 'total a pagar', 'importe', 'total general', 'a pagar', 'importe a pagar', 'total documento'],
      negatives: ['base', 'imponible', 'iva', 'impuesto', 'impuestos', 'descuento', 'sin', 'neto', 'retención', 'irpf', 'entregado', 'cambio'],
    },
    subtotal: {
      triggers: ['base imponible', 'importe neto'],
      labels: ['base imponible', 'importe neto', 'total neto', 'total sin iva', 'importe sin iva'],
    },
    tax: {
      triggers: ['iva', 'impuesto', 'impuestos', 'cuota iva'],
      labels: ['iva', 'impuesto', 'impuestos', 'cuota', 'cuota iva', 'importe iva', 'total iva', 'igic'],
      negatives: ['tipo', 'porcentaje', 'nif', 'cif', 'exento', 'base', 'sin'],
    },
    discount: { triggers: ['descuento'], labels: ['descuento', 'dto'] },
    date: {
      triggers: ['fecha'],
      labels: ['fecha'],
      negatives: ['vencimiento', 'entrega', 'pago', 'envío', 'pedido', 'nacimiento', 'validez', 'caducidad'],
    },
    time: { triggers: ['hora'], labels: ['hora'] },
    identifier: { triggers: ['número'], labels: ['número', 'núm', 'nro'] },
    business: {
      triggers: ['proveedor', 'vendedor', 'emisor', 'empresa'],
      labels: ['proveedor', 'vendedor', 'emisor', 'emitido por', 'datos del emisor'],
    },
    customer: {
      triggers: ['cliente', 'comprador', 'destinatario', 'receptor'],
      labels: ['cliente', 'comprador', 'destinatario', 'facturar a', 'datos del cliente', 'receptor'],
    },
    address: { triggers: ['dirección', 'domicilio'], labels: ['dirección', 'domicilio'] },
    phone: { triggers: ['teléfono'], labels: ['teléfono', 'tlf', 'tfno', 'móvil'] },
    email: { triggers: ['correo', 'correo electrónico'], labels: ['correo', 'correo electrónico'] },
    url: { triggers: ['sitio web', 'página web'], labels: ['sitio web', 'página web'] },
    quantity: { triggers: ['cantidad', 'unidades'], labels: ['cantidad', 'cant', 'uds', 'unidades'] },
    description: { triggers: ['descripción', 'concepto'], labels: ['descripción', 'concepto', 'artículo', 'producto', 'detalle'] },
    unitPrice: { triggers: ['precio unitario', 'precio'], labels: ['precio unitario', 'precio', 'precio unidad', 'pvp'] },
    amount: { triggers: ['importe'], labels: ['importe', 'total línea'] },
    percentage: { triggers: ['porcentaje'] },
    name: { triggers: ['nombre'], labels: ['nombre', 'razón social'] },
    currency: { triggers: ['moneda', 'divisa'], labels: ['moneda', 'divisa'] },
  },
  phrases: {
    'invoice number': ['número de factura', 'n° de factura', 'nº factura', 'factura n°', 'factura número', 'núm factura', 'número factura', 'factura nº', 'número de abono'],
    'invoice date': ['fecha de factura', 'fecha factura', 'fecha de emisión', 'fecha emisión', 'fecha de expedición', 'fecha expedición'],
    'due date': ['fecha de vencimiento', 'vencimiento', 'fecha vencimiento', 'fecha límite de pago'],
    'delivery date': ['fecha de entrega', 'fecha entrega', 'fecha de envío', 'fecha de operación'],
    'order number': ['número de pedido', 'n° de pedido', 'pedido n°', 'su pedido', 'nº pedido'],
    'customer number': ['número de cliente', 'n° de cliente', 'código cliente', 'cód cliente', 'nº cliente'],
    'vat id': ['nif', 'cif', 'nif iva', 'número de iva', 'nif cif', 'n i f', 'c i f'],
    bic: ['bic', 'swift'],
    'amount due': ['total a pagar', 'importe a pagar', 'a pagar', 'importe pendiente'],
    'tax total': ['total iva', 'cuota iva', 'importe iva', 'total impuestos', 'cuota total', 'total cuota'],
    'net total': ['base imponible', 'total base imponible', 'importe neto', 'total neto', 'total sin iva'],
    'gross total': ['total factura', 'importe total', 'total con iva', 'total iva incluido', 'total documento'],
  },
  titles: ['factura', 'factura rectificativa', 'abono', 'nota de crédito', 'factura simplificada'],
  numberMarkers: ['n°', 'nº', 'no', 'número', 'núm', 'nro'],
  inclusionWords: ['incluido', 'incluida', 'incl'],
  legalForms: ['S.L.', 'SL', 'S.A.', 'S.L.U.', 'SLU', 'S.A.U.', 'SAU', 'S.Coop.', 'S.L.L.', 'S.C.'],
  salutations: ['Sr.', 'Sra.', 'Srta.', 'Sres.', 'D.', 'Dña.', 'Don', 'Doña', 'Señor', 'Señora'],
};
