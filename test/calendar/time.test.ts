import { describe, expect, it } from 'vitest';
import { birthdayMonthDay, bornOn, celebratedMonthDays, celebratesOn } from '../../shared/people/birthday-index.ts';
import { User } from '../../shared/people/entities.ts';
import { blankProfile } from '../../shared/people/users.ts';

const sampleUser = {
  ...blankProfile(),
  email: 'a@example.com',
  name: 'A',
  role: 'member' as const,
  status: 'active' as const,
  joinedAt: '2020-01-01T00:00:00.000Z',
  isFeatured: false,
};

import { companyDate, isCalendarDate, parseInstant, startOfCompanyDay } from '../../shared/util/time.ts';

describe('instants with an offset', () => {
  it('keeps the offset it was given and adds missing seconds', () => {
    expect(parseInstant('2030-03-01T09:00:00+05:30')).toEqual({
      iso: '2030-03-01T09:00:00+05:30',
      utc: '2030-03-01T03:30:00.000Z',
      ms: Date.parse('2030-03-01T03:30:00Z'),
    });
    expect(parseInstant('2030-03-01T09:00-04:00')?.iso).toBe('2030-03-01T09:00:00-04:00');
    expect(parseInstant('2030-03-01t09:00:00.25z')?.iso).toBe('2030-03-01T09:00:00.25Z');
    expect(parseInstant('2030-03-01T09:00:00.25Z')?.utc).toBe('2030-03-01T09:00:00.250Z');
  });

  it('refuses times without an offset and moments that do not exist', () => {
    for (const bad of [
      '2030-03-01T09:00:00',
      '2030-03-01',
      '2030-02-30T09:00:00Z',
      '2030-13-01T09:00:00Z',
      '2030-03-01T24:00:00Z',
      '2030-03-01T09:00:00+15:00',
      'tomorrow',
      '10000-01-01T00:00:00Z',
    ]) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });

  it('checks calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2027-2-28')).toBe(false);
  });
});

describe('company days across daylight-saving changes', () => {
  it('follows New York through the spring and autumn changes', () => {
    const ny = 'America/New_York';
    // 8 March 2026: clocks go from 02:00 EST to 03:00 EDT.
    expect(companyDate(new Date('2026-03-08T04:59:59Z'), ny)).toBe('2026-03-07');
    expect(companyDate(new Date('2026-03-08T05:00:00Z'), ny)).toBe('2026-03-08');
    expect(companyDate(new Date('2026-03-09T03:59:59Z'), ny)).toBe('2026-03-08'); // 23:59:59 EDT
    expect(companyDate(new Date('2026-03-09T04:00:00Z'), ny)).toBe('2026-03-09');
    // 1 November 2026: clocks go from 02:00 EDT back to 01:00 EST.
    expect(companyDate(new Date('2026-11-01T03:59:59Z'), ny)).toBe('2026-10-31');
    expect(companyDate(new Date('2026-11-01T04:00:00Z'), ny)).toBe('2026-11-01');
    expect(companyDate(new Date('2026-11-02T04:59:59Z'), ny)).toBe('2026-11-01'); // 23:59:59 EST
    expect(companyDate(new Date('2026-11-02T05:00:00Z'), ny)).toBe('2026-11-02');
  });

  it('follows a zone east of UTC (Sydney) and UTC itself', () => {
    expect(companyDate(new Date('2026-04-04T13:30:00Z'), 'Australia/Sydney')).toBe('2026-04-05'); // 00:30 AEDT
    expect(companyDate(new Date('2026-04-05T13:30:00Z'), 'Australia/Sydney')).toBe('2026-04-05'); // 23:30 AEST, after the change
    expect(companyDate(new Date('2026-04-05T23:59:59Z'), 'UTC')).toBe('2026-04-05');
  });
});

describe('birthdays by month-day', () => {
  it('celebrates 29 February on 28 February in years that are not leap years', () => {
    expect(celebratedMonthDays('2027-02-28')).toEqual(['02-28', '02-29']);
    expect(celebratedMonthDays('2028-02-28')).toEqual(['02-28']);
    expect(celebratedMonthDays('2028-02-29')).toEqual(['02-29']);
    expect(celebratedMonthDays('2100-02-28')).toEqual(['02-28', '02-29']); // 2100 is not a leap year
    expect(celebratesOn('1992-02-29', '2027-02-28')).toBe(true);
    expect(celebratesOn('1992-02-29', '2028-02-28')).toBe(false);
    expect(celebratesOn('1992-02-29', '2028-02-29')).toBe(true);
    expect(celebratesOn('1990-07-04', '2027-07-04')).toBe(true);
    expect(celebratesOn(null, '2027-07-04')).toBe(false);
  });

  it('gives the index attributes a profile writer sets, and removes them without a date', () => {
    expect(birthdayMonthDay('1990-07-04')).toBe('07-04');
    const profile = (dateOfBirth: string | null) => User.indexAttributes({ ...sampleUser, id: 'u1', dateOfBirth });
    expect(profile('1990-07-04')).toMatchObject({ gsi5pk: 'BIRTHDAYS#07-04', gsi5sk: 'u1' });
    // A query of the index names its month-day through a date on it (29 February too).
    expect(profile(bornOn('02-29'))).toMatchObject({ gsi5pk: 'BIRTHDAYS#02-29' });
    // Present with an undefined value: the profile writer removes the attribute (sparse index).
    for (const none of [null, '']) {
      expect(birthdayMonthDay(none)).toBeUndefined();
      const attributes = profile(none);
      expect(Object.keys(attributes)).toEqual(expect.arrayContaining(['gsi5pk', 'gsi5sk']));
      expect([attributes.gsi5pk, attributes.gsi5sk]).toEqual([undefined, undefined]);
    }
  });
});

describe('the start of a company day', () => {
  it('is midnight in the company timezone, daylight-saving changes included', () => {
    const at = (iso: string, tz: string) => startOfCompanyDay(new Date(iso), tz).toISOString();
    expect(at('2030-03-01T12:00:00Z', 'UTC')).toBe('2030-03-01T00:00:00.000Z');
    expect(at('2030-03-01T20:00:00Z', 'Asia/Kolkata')).toBe('2030-03-01T18:30:00.000Z');
    expect(at('2030-03-01T03:00:00Z', 'America/New_York')).toBe('2030-02-28T05:00:00.000Z');
    // New York moves to daylight time on 10 March 2030: that day starts at 05:00Z, the next at 04:00Z.
    expect(at('2030-03-10T12:00:00Z', 'America/New_York')).toBe('2030-03-10T05:00:00.000Z');
    expect(at('2030-03-11T12:00:00Z', 'America/New_York')).toBe('2030-03-11T04:00:00.000Z');
    expect(at('2030-10-27T12:00:00Z', 'Europe/Berlin')).toBe('2030-10-26T22:00:00.000Z');
    expect(at('2030-10-28T12:00:00Z', 'Europe/Berlin')).toBe('2030-10-27T23:00:00.000Z');
  });
});
