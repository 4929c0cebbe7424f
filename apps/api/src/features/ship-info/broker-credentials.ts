import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/schema';
import { NAMESPACE } from '@portal/edge/sparkplug';

/**
 * The ships' credentials and topic ACLs on a real Mosquitto (docs/decisions/0131-mosquitto-credentials-and-tls.md):
 * the portal drives Mosquitto's dynamic security plugin over MQTT (`$CONTROL/dynamic-security/v1`), signed in as
 * MQTT_URL's user (the plugin's admin, made with `mosquitto_ctrl dynsec init`).
 *
 * - Each upload credential is a dynsec client: username = the credential's id (the middle of its token
 *   `psdu_<credential id>_<secret>`), password = the token. It is made when the credential is issued (the only moment
 *   the portal knows the token: it keeps a hash) and deleted when it is revoked; Mosquitto then disconnects it at once.
 * - Each ship is a dynsec role, `psdu-ship-<group>-<facility id>`, whose ACL lets it publish only its own Sparkplug
 *   messages and subscribe only its own commands and the hosts' STATE (the embedded broker's rules, broker.ts).
 * - The portal's own user gets a role that publishes and reads the group's topics (STATE, NCMD, the data).
 */
export interface BrokerAdmin {
  url: string;
  username: string;
  password: string;
  /** The CA certificate (PEM) of an mqtts:// broker with a private CA. */
  ca?: Buffer;
  groupId: string;
}

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
/** How long one round of commands may take (connect, subscribe, answer). */
const CONTROL_TIMEOUT_MS = 10_000;
const HOST_ROLE = 'psdu-portal-host';

/** The broker the portal provisions ship credentials on, or null (the embedded broker, no MQTT_DYNSEC, LIVE=off). */
export function brokerAdminOf(
  config: Pick<Config, 'LIVE' | 'MQTT_URL' | 'MQTT_DYNSEC' | 'MQTT_GROUP_ID'> & { mqttCa?: Buffer | null },
): BrokerAdmin | null {
  if (config.LIVE === 'off' || !config.MQTT_URL || config.MQTT_DYNSEC !== 'on') return null;
  const url = new URL(config.MQTT_URL);
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return {
    url: url.toString().replace(/\/$/, ''),
    username,
    password,
    ...(config.mqttCa ? { ca: config.mqttCa } : {}),
    groupId: config.MQTT_GROUP_ID,
  };
}

export const shipRole = (groupId: string, facilityId: string) => `psdu-ship-${groupId}-${facilityId}`;

/** What a ship's edge node may do (Sparkplug 3.0 §4.1 topics; the embedded broker's rules in broker.ts). */
export function shipAcls(groupId: string, facilityId: string) {
  const base = `${NAMESPACE}/${groupId}`;
  const send = (topic: string) => ({ acltype: 'publishClientSend', topic, priority: 0, allow: true });
  const subscribe = (topic: string) => ({ acltype: 'subscribePattern', topic, priority: 0, allow: true });
  return [
    send(`${base}/NBIRTH/${facilityId}`),
    send(`${base}/NDEATH/${facilityId}`),
    send(`${base}/NDATA/${facilityId}`),
    send(`${base}/DBIRTH/${facilityId}/+`),
    send(`${base}/DDEATH/${facilityId}/+`),
    send(`${base}/DDATA/${facilityId}/+`),
    subscribe(`${base}/NCMD/${facilityId}`),
    subscribe(`${base}/DCMD/${facilityId}/+`),
    subscribe(`${NAMESPACE}/STATE/+`),
  ];
}

type Command = Record<string, unknown> & { command: string };
interface Response {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** Sends commands to the dynamic security plugin and answers its responses, in order. Throws when it cannot. */
export async function dynsecCommands(admin: BrokerAdmin, commands: Command[]): Promise<Response[]> {
  const tagged = commands.map((c) => ({ ...c, correlationData: randomUUID() }));
  const client = mqtt.connect(admin.url, {
    clientId: `psdu-admin-${randomUUID().slice(0, 8)}`,
    username: admin.username,
    password: admin.password,
    ...(admin.ca ? { ca: admin.ca } : {}),
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: CONTROL_TIMEOUT_MS,
  });
  try {
    return await new Promise<Response[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The broker did not answer within ${CONTROL_TIMEOUT_MS / 1000} s`)),
        CONTROL_TIMEOUT_MS,
      );
      const answers = new Map<string, Response>();
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      client.once('error', fail);
      client.once('close', () => fail(new Error('The broker closed the connection')));
      client.on('message', (topic, payload) => {
        if (topic !== RESPONSE_TOPIC) return;
        let parsed: { responses?: Response[] };
        try {
          parsed = JSON.parse(payload.toString('utf8')) as { responses?: Response[] };
        } catch {
          return;
        }
        for (const r of parsed.responses ?? []) if (r.correlationData) answers.set(r.correlationData, r);
        if (tagged.every((c) => answers.has(c.correlationData))) {
          clearTimeout(timer);
          resolve(tagged.map((c) => answers.get(c.correlationData)!));
        }
      });
      client.once('connect', () => {
        client.subscribe(RESPONSE_TOPIC, { qos: 1 }, (error, granted) => {
          if (error || granted?.[0]?.qos === 128)
            return fail(new Error(`${admin.username} may not administer the broker's dynamic security`));
          client.publish(CONTROL_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 });
        });
      });
    });
  } finally {
    client.end(true);
  }
}

/** Throws the first error among the responses that `ignore` does not accept. */
function check(responses: Response[], ignore: (r: Response) => boolean = () => false): Response[] {
  const failed = responses.find((r) => r.error && !ignore(r));
  if (failed) throw new Error(`The broker refused ${failed.command}: ${failed.error}`);
  return responses;
}

const ALREADY = /already exists|already has/i;

/**
 * Makes a newly issued upload credential a client of the broker, with its ship's role (made when missing). Throws when
 * the broker cannot be reached or refuses.
 */
export async function provisionShipCredential(
  admin: BrokerAdmin,
  credential: { facilityId: string; credentialId: string; token: string },
): Promise<void> {
  const rolename = shipRole(admin.groupId, credential.facilityId);
  check(
    await dynsecCommands(admin, [
      { command: 'createRole', rolename, acls: shipAcls(admin.groupId, credential.facilityId) },
      {
        command: 'createClient',
        username: credential.credentialId,
        password: credential.token,
        textname: `Upload credential of ship ${credential.facilityId}`,
        roles: [{ rolename }],
      },
    ]),
    (r) => r.command === 'createRole' && ALREADY.test(r.error ?? ''),
  );
}

/** Deletes a revoked credential's client: Mosquitto disconnects it if connected. An unknown one is no error. */
export async function removeShipCredential(admin: BrokerAdmin, credentialId: string): Promise<void> {
  check(await dynsecCommands(admin, [{ command: 'deleteClient', username: credentialId }]), (r) =>
    /not found/i.test(r.error ?? ''),
  );
}

/**
 * At the live stream's start and then now and again: the portal's own user gets its host role, and the broker's ship
 * credentials are brought in step with the database. A client of a credential that is revoked or gone is deleted (a
 * revocation whose broker call failed); a credential the broker lacks (issued before the broker was set up, or while
 * it was down) cannot be added, the portal keeping only its hash: it is counted, and the log asks for a new one.
 */
export async function reconcileBroker(
  db: Kysely<Database>,
  admin: BrokerAdmin,
): Promise<{ removed: string[]; missing: { facilityId: string; credentialId: string }[] }> {
  const base = `${NAMESPACE}/${admin.groupId}`;
  const hostAcls = ['publishClientSend', 'publishClientReceive', 'subscribePattern'].flatMap((acltype) =>
    [`${base}/#`, `${NAMESPACE}/STATE/#`].map((topic) => ({ acltype, topic, priority: 0, allow: true })),
  );
  const prepared = check(
    await dynsecCommands(admin, [
      { command: 'createRole', rolename: HOST_ROLE },
      ...hostAcls.map((acl) => ({ command: 'addRoleACL', rolename: HOST_ROLE, ...acl })),
      { command: 'getClient', username: admin.username },
    ]),
    // Made at an earlier start.
    (r) => ALREADY.test(r.error ?? ''),
  );
  const hasHostRole = (response: Response) =>
    !!(response.data as { client?: { roles?: { rolename: string }[] } } | undefined)?.client?.roles?.some(
      (r) => r.rolename === HOST_ROLE,
    );
  // Only when missing: a change of a client's roles disconnects its connections (this one too, before the answer; the
  // host's; another process's), so the role is looked for again on a new connection.
  if (!hasHostRole(prepared.at(-1)!)) {
    await dynsecCommands(admin, [
      { command: 'addClientRole', username: admin.username, rolename: HOST_ROLE },
    ]).catch(() => undefined);
    const again = check(await dynsecCommands(admin, [{ command: 'getClient', username: admin.username }]));
    if (!hasHostRole(again[0]!))
      throw new Error(`The broker did not give ${admin.username} the role ${HOST_ROLE}`);
  }
  const listed = (
    await dynsecCommands(admin, [{ command: 'listClients', verbose: true, count: -1, offset: 0 }])
  )[0]!;
  check([listed]);
  const clients =
    (listed.data as { clients?: { username: string; roles?: { rolename: string }[] }[] } | undefined)
      ?.clients ?? [];
  const prefix = `psdu-ship-${admin.groupId}-`;
  const ours = clients.filter((c) => c.roles?.some((r) => r.rolename.startsWith(prefix)));
  const valid = await db
    .selectFrom('upload_credentials')
    .select(['id', 'facility_id'])
    .where('revoked_on', 'is', null)
    .execute();
  const validIds = new Set(valid.map((v) => v.id));
  const removed = ours.filter((c) => !validIds.has(c.username)).map((c) => c.username);
  if (removed.length)
    check(
      await dynsecCommands(
        admin,
        removed.map((username) => ({ command: 'deleteClient', username })),
      ),
      (r) => /not found/i.test(r.error ?? ''),
    );
  const onBroker = new Set(ours.map((c) => c.username));
  const missing = valid
    .filter((v) => !onBroker.has(v.id))
    .map((v) => ({ facilityId: v.facility_id, credentialId: v.id }));
  return { removed, missing };
}
