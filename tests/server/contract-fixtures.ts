/**
 * What the CRUD-contract walk needs beyond the schema for the few resources whose hand-written
 * rules a schema-built sample cannot satisfy: a cron expression that parses and a registered job,
 * an ID number that agrees with the birthday and sex, an applicant that exists for the entries
 * they own, a password the API takes but never answers. Every other resource needs nothing here.
 */
import type { FastifyInstance } from 'fastify';
import type { ResourceSpec } from '../../src/shared/resource-spec.ts';
import { bearer } from './helpers.ts';
import { idCardCheckDigit } from '../../src/shared/validators.ts';

export interface FixtureContext {
  app: FastifyInstance;
  spec: ResourceSpec;
  token: string;
  specs: ResourceSpec[];
  variant: number;
  /** a valid body for another resource (its own fixture applied) */
  bodyOf(resource: string, variant: number): Promise<Record<string, unknown>>;
}

export interface ContractFixture {
  /** field values laid over the schema-built sample */
  values?(ctx: FixtureContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** fields the API accepts but never answers */
  writeOnly?: string[];
  /** the resource's PUT is a call of its own (why), tested where that call is */
  ownEdit?: string;
  /** optional fields the walk leaves empty (why), tested in the resource's own suite */
  leaveEmpty?: Record<string, string>;
}

/** Valid GB 11643 numbers: a woman born 1949-12-31 and a man born 1980-01-01. */
const ID_CARDS = [
  { card: '11010519491231002X', birthday: '1949-12-31', sex: 0 },
  { card: '440524188001010014', birthday: '1880-01-01', sex: 1 },
];

/** One registration per ID number: each applicant the walk makes gets a new number of the variant's person. */
let cardCount = 0;
function freshIdCard(variant: number): { card: string; birthday: string; sex: number } {
  const person = ID_CARDS[variant % ID_CARDS.length];
  // the 15th-16th digits are free; the 17th keeps the sex (odd man, even woman)
  const seq = String(10 + (cardCount++ % 89)).padStart(2, '0') + (person.sex === 1 ? '1' : '2');
  const first17 = person.card.slice(0, 14) + seq;
  return { ...person, card: first17 + idCardCheckDigit(first17) };
}

async function created(ctx: FixtureContext, resource: string): Promise<{ id: number; mobile?: string }> {
  const spec = ctx.specs.find((s) => s.name === resource)!;
  const body = await ctx.bodyOf(resource, 0);
  const res = await ctx.app.inject({ method: 'POST', url: `/${spec.path}`, headers: bearer(ctx.token), payload: body });
  if (res.statusCode !== 201) throw new Error(`creating a ${resource} for the contract failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** An entry owned by a new applicant: dates in order, a referee who is not the applicant. */
async function applicantEntry(ctx: FixtureContext): Promise<Record<string, unknown>> {
  const applicant = await created(ctx, 'applicant');
  const values: Record<string, unknown> = {
    staffunId: applicant.id,
    startDate: `201${ctx.variant}-09-01`,
    endDate: `201${ctx.variant + 4}-07-01`,
  };
  if (ctx.spec.fields.some((f) => f.name === 'zmrPhone')) values.zmrPhone = ctx.variant === 0 ? '13700000001' : '13700000002';
  return values;
}

let dealerCount = 0;

export const CONTRACT_FIXTURES: Record<string, ContractFixture> = {
  dj: {
    values: ({ variant }) => ({
      cronExpression: variant === 0 ? '0 0 3 * * ?' : '0 30 4 * * ?',
      project: 'authMaintenance',
      methodName: variant === 0 ? 'purgeExpiredCaptchas' : 'purgeExpiredSessions',
      isPause: true,
    }),
  },
  applicant: {
    values: ({ variant }) => ({
      ...freshIdCard(variant),
      cardProvince: '410000',
      cardCity: '410100',
      cardCounty: '410102',
      nowProvince: '410000',
      nowCity: '410100',
      nowCounty: variant === 0 ? '410102' : '410103',
    }),
  },
  staffunEducation: { values: applicantEntry },
  staffunWork: { values: applicantEntry },
  staffunPx: { values: applicantEntry },
  // a system account links to one roster entry only: the import of the exported pair would link it twice
  staff: { leaveEmpty: { userId: 'linked to one entry only; tested in staff-roster.test.ts' } },
  // PUT api/dbc/dbcInfo is the staff audit of the request's state machine, not a field edit
  dbcInfo: { ownEdit: 'the audit transitions, tested with the dealer flow' },
  // sign-in names are unique: every company the walk makes (its own pair, and those its
  // dependents refer to) gets a new one
  dbcCompany: {
    values: () => {
      dealerCount += 1;
      return { username: `dealer${dealerCount}`, password: 'Dealer@2024' };
    },
    writeOnly: ['password'],
  },
};
