import { expect } from 'chai';
import { amountReadings, amountsEqual, anls, datesEqual, findDateTokens, formatIsoDate, looksLikeMoney, normaliseText, parseAmount, parseDate } from '../../scripts/eval/normalise.js';

function iso(text: string, order: 'day-first' | 'month-first' = 'day-first'): string | undefined {
  const date = parseDate(text, order);
  return date ? formatIsoDate(date) : undefined;
}

describe('eval normalisation', () => {
  describe('strings', () => {
    it('ignores case, whitespace and punctuation (WildReceipt drops blanks inside boxes)', () => {
      expect(normaliseText('5800NorthgateDrive,Sui')).to.equal(normaliseText('5800 Northgate Drive, Sui'));
      expect(normaliseText('NO.12, JALAN')).to.equal(normaliseText('NO.12,JALAN'));
      expect(normaliseText('Neogenomics Laboratories Inc.')).to.equal(normaliseText('NeoGenomics Laboratories, Inc.'));
    });

    it('applies NFKC and spells & as "and"', () => {
      expect(normaliseText('ＣＡＦＥ')).to.equal('cafe');
      expect(normaliseText('Cash & Carry')).to.equal(normaliseText('cash and carry'));
    });

    it('keeps letters and digits that differ', () => {
      expect(normaliseText('Delaware')).not.to.equal(normaliseText('Delawere'));
      expect(normaliseText('12 months')).not.to.equal(normaliseText('1 year'));
    });

    it('ANLS is the similarity above 0.5 and 0 below', () => {
      expect(anls('abcdefghij', 'abcdefghij')).to.equal(1);
      expect(anls('abcdefxxxx', 'abcdefghij')).to.be.closeTo(0.6, 1e-9);
      expect(anls('abcdexxxxx', 'abcdefghij')).to.equal(0.5);
      expect(anls('abcdxxxxxx', 'abcdefghij')).to.equal(0);
    });
  });

  describe('amounts', () => {
    it('drops currency symbols and codes before or after the number', () => {
      expect(amountsEqual('RM 9.00', '9.00')).to.equal(true);
      expect(amountsEqual('RM9.00', '9')).to.equal(true);
      expect(amountsEqual('$60.44', '60.44')).to.equal(true);
      expect(amountsEqual('£23.95', '23.95')).to.equal(true);
      expect(amountsEqual('AED105.00', '105')).to.equal(true);
      expect(amountsEqual('34,85EUR', '34.85')).to.equal(true);
    });

    it('accepts decimal commas', () => {
      expect(amountsEqual('Eur154,40', '154.40')).to.equal(true);
      expect(parseAmount('154,40')).to.be.closeTo(154.4, 1e-9);
      expect(parseAmount('197,70')).to.be.closeTo(197.7, 1e-9);
    });

    it('reads thousands separators in both conventions', () => {
      expect(amountsEqual('1,234.56', '1234.56')).to.equal(true);
      expect(amountsEqual('1.234,56', '1234.56')).to.equal(true);
      expect(parseAmount('1,050.00')).to.equal(1050);
      expect(parseAmount('1,234,567')).to.equal(1234567);
    });

    it('keeps both readings of a lone separator before three digits', () => {
      expect(amountReadings('1,234')).to.have.members([1.234, 1234]);
      expect(amountReadings('0,500')).to.deep.equal([0.5]);
    });

    it('does not confuse different magnitudes', () => {
      expect(amountsEqual('9.00', '90.0')).to.equal(false);
      expect(amountsEqual('75.06', '75.00')).to.equal(false);
      expect(amountsEqual('75.004', '75.00')).to.equal(true);
    });

    it('handles negatives and rejects non-amounts', () => {
      expect(parseAmount('-1.73')).to.be.closeTo(-1.73, 1e-9);
      expect(parseAmount('(2.50)')).to.be.closeTo(-2.5, 1e-9);
      expect(parseAmount('10.07.13')).to.equal(undefined);
      expect(parseAmount('415-507-0493')).to.equal(undefined);
      expect(parseAmount('8:35PM')).to.equal(undefined);
      expect(parseAmount('TOTAL')).to.equal(undefined);
    });

    it('recognises money only with a currency mark or two decimals', () => {
      expect(looksLikeMoney('9.00')).to.equal(true);
      expect(looksLikeMoney('$6.16')).to.equal(true);
      expect(looksLikeMoney('45,00')).to.equal(true);
      expect(looksLikeMoney('67341782')).to.equal(false);
      expect(looksLikeMoney('0323.30652')).to.equal(false);
      expect(looksLikeMoney('2 years')).to.equal(false);
    });
  });

  describe('dates', () => {
    it('reads numeric dates day-first or month-first as asked', () => {
      expect(iso('06/03/2018', 'day-first')).to.equal('2018-03-06');
      expect(iso('06/03/2018', 'month-first')).to.equal('2018-06-03');
      expect(datesEqual('2018-03-06', '06/03/2018', 'day-first')).to.equal(true);
      expect(datesEqual('2018-06-03', '06/03/2018', 'day-first')).to.equal(false);
    });

    it('lets a part above 12 decide the order', () => {
      expect(iso('11/14/2015', 'day-first')).to.equal('2015-11-14');
      expect(iso('27/03/2016', 'month-first')).to.equal('2016-03-27');
    });

    it('reads 2-digit years as 20xx', () => {
      expect(iso('10.07.13')).to.equal('2013-07-10');
      expect(iso('15-03-18')).to.equal('2018-03-15');
      expect(iso('11/03/18')).to.equal('2018-03-11');
    });

    it('reads month names in either position', () => {
      expect(iso('15 MAR 2018')).to.equal('2018-03-15');
      expect(iso('05 MAY 2018')).to.equal('2018-05-05');
      expect(iso('Feb11.2012')).to.equal('2012-02-11');
      expect(iso('March 14, 2024')).to.equal('2024-03-14');
      expect(iso("JAN31'13")).to.equal('2013-01-31');
      expect(iso('30-DEC-2016')).to.equal('2016-12-30');
      expect(iso('14th March 2024')).to.equal('2024-03-14');
      expect(iso('24th day of August, 1999')).to.equal('1999-08-24');
    });

    it('reads the month names of European invoices, with or without accents', () => {
      expect(iso('14. März 2024')).to.equal('2024-03-14');
      expect(iso('11. Marz 2014')).to.equal('2014-03-11');
      expect(iso('3 avril 2024')).to.equal('2024-04-03');
      expect(iso('1 décembre 2023')).to.equal('2023-12-01');
      expect(iso('3 de abril de 2024')).to.equal('2024-04-03');
      expect(iso('7 settembre 2022')).to.equal('2022-09-07');
      expect(iso('12 maart 2021')).to.equal('2021-03-12');
      expect(iso('5 de março de 2020')).to.equal('2020-03-05');
      expect(iso('14 marca 2024')).to.equal('2024-03-14');
      expect(iso('2 października 2019')).to.equal('2019-10-02');
      expect(findDateTokens('Lisboa, 3 de abril de 2024')).to.deep.equal(['3 de abril de 2024']);
    });

    it('reads ISO and 8-digit dates', () => {
      expect(iso('2016/11/02')).to.equal('2016-11-02');
      expect(iso('2003-04-09')).to.equal('2003-04-09');
      expect(iso('20180306')).to.equal('2018-03-06');
      expect(iso('06032018', 'day-first')).to.equal('2018-03-06');
    });

    it('ignores weekdays and labels around the date, but not impossible dates', () => {
      expect(iso('09/06/2007THU')).to.equal('2007-06-09');
      expect(iso('Date: 06/03/2018 10:15')).to.equal('2018-03-06');
      expect(iso('31/02/2018')).to.equal(undefined);
      expect(iso('13/13/2018')).to.equal(undefined);
      expect(iso('8:35PM')).to.equal(undefined);
    });

    it('does not read words that merely start like a month as months', () => {
      expect(iso('disc 12 2018')).to.equal(undefined);
    });

    it('finds date-like tokens in running text', () => {
      const tokens = findDateTokens('INVOICE 123 DATE: 15 MAR 2018 TIME 10:15\nTEL 415-507-0493 paid 2018-03-16');
      expect(tokens).to.deep.equal(['15 MAR 2018', '2018-03-16']);
      expect(findDateTokens('entered into this 24th day of August, 1999, by')).to.deep.equal(['24th day of August, 1999']);
      expect(findDateTokens('DATE06/03/2018 Summary 12 2018')).to.deep.equal(['06/03/2018']);
    });
  });
});
