// Starting schemas for the playground's preset menu. Descriptions matter: every engine reads them.
export const PRESETS = {
  invoice: {
    type: 'object',
    properties: {
      seller: { type: 'string', description: 'Name of the company that issued the invoice' },
      invoice_number: { type: 'string', description: 'Invoice number' },
      invoice_date: { type: 'string', description: 'Invoice date as YYYY-MM-DD' },
      due_date: { type: 'string', description: 'Payment due date as YYYY-MM-DD' },
      currency: { type: 'string', description: 'Currency code, e.g. EUR, USD, GBP' },
      line_items: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            description: { type: 'string' },
            quantity: { type: 'number' },
            unit_price: { type: 'number' },
            amount: { type: 'number' },
          },
        },
      },
      subtotal: { type: 'number', description: 'Total before tax' },
      tax: { type: 'number', description: 'Tax amount (VAT, GST, sales tax)' },
      total: { type: 'number', description: 'Total amount due' },
    },
  },
  receipt: {
    type: 'object',
    properties: {
      store_name: { type: 'string', description: 'Name of the store as printed in the header' },
      address: { type: 'string', description: 'Address of the store' },
      date: { type: 'string', format: 'date', description: 'Date of purchase' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
      },
      total: { type: 'number', description: 'Total amount paid' },
    },
  },
  contract: {
    type: 'object',
    properties: {
      parties: { type: 'array', items: { type: 'string' }, description: 'Names of all parties to the agreement' },
      effective_date: { type: 'string', format: 'date', description: 'Date from which the agreement is effective' },
      jurisdiction: { type: 'string', description: 'State or country whose law governs the agreement, name only' },
      term: { type: 'string', description: "Duration of the agreement, as '<number> <unit>'" },
    },
  },
};
