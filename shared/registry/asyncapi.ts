import { realtimeStreamRoute } from '../api/routes/realtime.ts';
import type { ChangeType } from '../live/change-events.ts';
import { REPLAY_EVENTS, REPLAY_SECONDS } from '../live/event-log.ts';
import { PING_MS } from '../live/stream-session.ts';
import * as z from '../util/zod.ts';
import { changeTypes } from './change-types.ts';
import { documentInfo } from './document-info.ts';

type JsonSchema = Record<string, any>;

/**
 * A zod schema as the AsyncAPI document's JSON Schema (draft-07, which AsyncAPI's default schema
 * format extends), with zod's own converter as in openapi.ts. Objects stay open (no
 * `additionalProperties: false`): a payload may gain fields, and clients ignore what they do not know.
 */
function toSchema(schema: z.ZodMiniType): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    target: 'draft-07',
    io: 'output',
    unrepresentable: 'any',
    reused: 'inline',
  }) as JsonSchema;
  const open = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(open);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k, v]) => !(k === 'additionalProperties' && v === false))
        .map(([k, v]) => [k, open(v)]),
    );
  };
  return open(json) as JsonSchema;
}

const ID_RULE = [
  "The frame's `id` is `<epoch>:<seq>`, the stream's position: `ready` and `ping` carry it too, so a client",
  'that saw no change for itself still reconnects (sending the last id as `Last-Event-ID`) from where its stream was.',
].join(' ');

const RECONNECT_RULE = [
  'Reconnect with the last id received in the `Last-Event-ID` header (EventSource does it by itself): the gap',
  `is replayed when it is within the last ${REPLAY_EVENTS} events or the last ${REPLAY_SECONDS / 60} minutes,`,
  'whichever is more. Otherwise (the epoch changed because the service restarted or was deployed, and seq',
  'restarted; the gap is older; the id is malformed or ahead of the server) `ready` is followed by `resync`',
  'instead of a partial replay, and the stream continues from now.',
].join(' ');

/** The SSE fields of a frame (`event:`, `id:`, `retry:`), as the message's headers. */
function frameFields(event: string, id: 'always' | 'never', retry?: string): JsonSchema {
  const properties: JsonSchema = {
    event: { type: 'string', const: event, description: 'The SSE event name (`event:` line).' },
  };
  if (id === 'always')
    properties.id = {
      type: 'string',
      pattern: '^[0-9a-f-]{36}:[0-9]+$',
      description: "The stream's position, `<epoch>:<seq>` (`id:` line): send the last one back as `Last-Event-ID`.",
    };
  if (retry) properties.retry = { type: 'integer', description: retry };
  return { type: 'object', required: Object.keys(properties).filter((k) => k !== 'retry'), properties };
}

const messageKey = (t: ChangeType) => `change.${t.name}`;

const AUDIENCE_TEXT = {
  everyone: 'Audience: everyone signed in.',
  user: 'Audience: only the person it concerns (the caller), on every stream of theirs.',
  readers:
    'Audience: everyone signed in who may read the post: everyone for a post without an audience; for a targeted post (docs/audiences.md), its audience, its author and super admins only.',
} as const;

/** One `change` frame of one change type: the frame's envelope with that type's payload. */
function changeMessage(t: ChangeType): JsonSchema {
  return {
    name: t.name,
    title: `change: ${t.name}`,
    summary: t.description,
    description: `${t.description} ${AUDIENCE_TEXT[t.audience]} ${ID_RULE}`,
    contentType: 'application/json',
    headers: frameFields('change', 'always'),
    payload: {
      type: 'object',
      required: ['seq', 'type', 'at', 'actorId', 'payload'],
      properties: {
        seq: { type: 'integer', minimum: 1, description: 'Position in the epoch (the `<seq>` of the id).' },
        type: { type: 'string', const: t.name },
        at: { type: 'string', format: 'date-time', description: 'When the change happened.' },
        actorId: {
          type: ['string', 'null'],
          description:
            'Who made the change (attribution only: never skip an event because it is yours; your other devices need it). Null when nobody did (a sweep).',
        },
        payload: toSchema(t.payload),
      },
    },
    'x-audience': t.audience,
    tags: [{ name: 'change' }],
  };
}

/**
 * The AsyncAPI 3.0 document of the live-update stream (`GET /api/v1/realtime/stream`), made from the
 * change types the areas declare beside their mappers (`change-types.ts`), as the OpenAPI document is
 * made from the route table: the server, the channel with its security, the frames `ready`,
 * `change`, `resync`, `ping`, and one `change` message per change type with its payload's JSON
 * Schema and its audience (`x-audience`: `everyone`, `user` or `readers`).
 */
export function asyncapiDocument(types: readonly ChangeType[] = changeTypes): Record<string, any> {
  const frames: Record<string, JsonSchema> = {
    ready: {
      name: 'ready',
      title: 'ready',
      summary: 'The stream is up: the first frame of every connection.',
      description: `The first frame of every connection. ${ID_RULE} ${RECONNECT_RULE}`,
      contentType: 'application/json',
      headers: frameFields(
        'ready',
        'always',
        'Reconnection delay in milliseconds (1000 to 5000, drawn per connection), for EventSource.',
      ),
      payload: {
        type: 'object',
        required: ['epoch'],
        properties: {
          epoch: {
            type: 'string',
            format: 'uuid',
            description: "The event log's epoch; it changes when the service restarts.",
          },
        },
      },
    },
    resync: {
      name: 'resync',
      title: 'resync',
      summary: 'What was missed cannot be replayed: refetch what is on screen.',
      description: `Sent right after \`ready\` when the gap after \`Last-Event-ID\` cannot be replayed. It has no id. ${RECONNECT_RULE}`,
      contentType: 'application/json',
      headers: frameFields('resync', 'never'),
      payload: { type: 'object', properties: {}, description: 'Empty.' },
    },
    ping: {
      name: 'ping',
      title: 'ping',
      summary: `Keep-alive every ${PING_MS / 1000} seconds: ignore it; its absence signals a dead connection.`,
      description: [
        `Keep-alive every ${PING_MS / 1000} seconds. ${ID_RULE}`,
        'A stream whose slot was taken (the same tab reconnected with its `clientId`, or the person opened more',
        'streams than allowed) ends with a last `ping` whose `retry` asks for 30 to 60 seconds before reconnecting.',
      ].join(' '),
      contentType: 'application/json',
      headers: frameFields(
        'ping',
        'always',
        'Only on the last ping of a stream whose slot was taken: wait this long (30000 to 60000 ms) before reconnecting.',
      ),
      payload: { type: 'object', properties: {}, description: 'Empty.' },
    },
  };
  const messages: Record<string, JsonSchema> = { ...frames };
  for (const t of types) {
    const key = messageKey(t);
    if (messages[key]) throw new Error(`change type ${t.name} is declared twice`);
    messages[key] = changeMessage(t);
  }
  const refs = Object.fromEntries(Object.keys(messages).map((k) => [k, { $ref: `#/components/messages/${k}` }]));
  return {
    asyncapi: '3.0.0',
    info: documentInfo(
      'Workplace collaboration service: the live-update stream',
      [
        'The server-sent events of the live-update stream. The stream announces what changed; events carry',
        'identifiers, not rows: re-read the named resource with the HTTP API (the OpenAPI document,',
        '`/api/v1/openapi.json`). The stream is an accelerator: every route answers without it. Grievance',
        'activity is never announced.',
      ].join(' '),
    ),
    defaultContentType: 'application/json',
    servers: {
      service: {
        host: '{host}',
        protocol: 'https',
        // As the OpenAPI document's servers (`/`): the same base address as every route.
        pathname: '/',
        description: 'The service: the same base address as every route (locally http://127.0.0.1:3000).',
        variables: {
          host: {
            description: "The host the service answers on (the deployment's `BaseUrl`).",
            examples: ['workplace.example.com', '127.0.0.1:3000'],
          },
        },
        security: [{ $ref: '#/components/securitySchemes/bearer' }, { $ref: '#/components/securitySchemes/cookie' }],
      },
    },
    channels: {
      stream: {
        address: realtimeStreamRoute.path,
        title: 'The live-update stream',
        summary: realtimeStreamRoute.summary,
        description: [
          `\`GET ${realtimeStreamRoute.path}\` with \`Accept: text/event-stream\`: one long-lived connection per tab.`,
          'It ends by itself after 5 to 6 minutes; reconnect with `Last-Event-ID`.',
          '`clientId` (optional query parameter) names the tab: a new stream of the same tab ends its previous one.',
          RECONNECT_RULE,
        ].join(' '),
        servers: [{ $ref: '#/servers/service' }],
        messages: refs,
      },
    },
    operations: {
      stream: {
        action: 'send',
        channel: { $ref: '#/channels/stream' },
        title: 'Stream live updates',
        summary: 'The service sends `ready`, then `resync` or the replayed gap, then change frames and pings.',
        description:
          'Opened by the client with GET; the service sends the frames. Each change frame is checked against its audience: a client receives only what is for everyone, for the signed-in person, or about a post they may read (docs/audiences.md).',
        bindings: {
          http: {
            method: 'GET',
            query: toSchema(realtimeStreamRoute.query ?? z.object({})),
            bindingVersion: '0.3.0',
          },
        },
        messages: Object.keys(messages).map((k) => ({ $ref: `#/channels/stream/messages/${k}` })),
      },
    },
    components: {
      messages,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The session token (`set-auth-token` at sign-in).' },
        cookie: {
          type: 'httpApiKey',
          in: 'cookie',
          name: 'wcs_session',
          description: "The web client's session cookie (a browser's EventSource sends it).",
        },
      },
    },
  };
}
