/**
 * The shapes the OpenAPI tables of the hand-written routes are written with (api-docs-routes.ts
 * and the area tables beside it): answers by media type, errors in the product's shape, pages,
 * multipart uploads, and the explicit "takes no body" of a write that only triggers an action.
 * An entry is merged into the documented route of the same `METHOD /openapi/path` by api-docs.ts;
 * it is never given to Fastify (a response schema there would become its serialiser).
 */
import type { Static, TSchema } from '@sinclair/typebox';

export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (schema: Json | TSchema, description: string) => ({ description, content: { 'application/json': { schema } } });
/** An answer without a body (204, or a 200 the server sends empty). */
export const empty = (description: string) => ({ type: 'null', description });
export const arrayOf = (schema: Json | TSchema) => ({ type: 'array', items: schema });
export const nullable = (type: string, extra: Json = {}) => ({ type: [type, 'null'], ...extra });
export const object = (properties: Json, required: string[] = Object.keys(properties), extra: Json = {}) => ({
  type: 'object',
  required,
  properties,
  ...extra,
});
export const pageOf = (item: Json | TSchema) =>
  object({ content: arrayOf(item), totalElements: { type: 'integer', minimum: 0 } }, ['content', 'totalElements']);
export const idsBody = (description: string) => ({
  type: 'array',
  items: { type: 'integer', minimum: 1 },
  minItems: 1,
  description,
});
/** `{message}`: the Chinese notice the screens show after the call. */
export const MESSAGE = (description: string) => json(object({ message: { type: 'string' } }), description);

const EXAMPLE_TIME = '2026-01-01T08:00:00.000Z';
/** An error answer `{status, message, timestamp}` with the server's own message as the example. */
export function errorAnswer(status: number, description: string, message: string, schema: Json = ref('Error')): Json {
  return {
    description,
    content: { 'application/json': { schema, example: { status, message, timestamp: EXAMPLE_TIME } } },
  };
}

/** An error answer whose message depends on the case (the description says when). */
export const refusal = (description: string) => json(ref('Error'), description);

/** A file answer of one media type (a PDF, an image, an archive). */
export const fileAnswer = (mime: string, description: string) => ({
  description,
  content: { [mime]: { schema: { type: 'string', contentMediaType: mime } } },
});

/** A multipart body with one file field (`file`) and what the server accepts in it. */
export function uploadBody(description: string, mimes?: string[]): Json {
  return {
    consumes: ['multipart/form-data'],
    body: object(
      {
        file: {
          type: 'string',
          contentMediaType: mimes?.length === 1 ? mimes[0] : 'application/octet-stream',
          description,
        },
      },
      ['file'],
    ),
  };
}

/**
 * A write that takes no request body (the path or the query names what it acts on): said
 * explicitly, as `x-no-body` with the reason, rather than left undeclared.
 */
export const NO_BODY = 'x-no-body';
export const noBody = (reason: string) => ({ [NO_BODY]: reason });

/**
 * A hand-written read that takes an entity list's paging, sort and filters (`x-filter`): the
 * document gives it that list's query parameters, from the same schema as the list's own.
 */
export const LIST_QUERY_OF = 'listQueryOf';
export const listQueryOf = (entity: string, paging = true) => ({ [LIST_QUERY_OF]: { entity, paging } });

/**
 * A compile-time proof that a TypeBox schema and the code's own type describe the same value:
 * `same<Static<typeof Schema>, CodeType>(true)` fails to compile when either side changes alone.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;
export type { Static };
