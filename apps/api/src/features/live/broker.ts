import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo, type Server as NetServer } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isUuid } from '../access/policy';
import { resolveUploadToken } from '../ship-info/credentials';
import { EDGE_MESSAGE_TYPES, NAMESPACE, parseTopic, stateTopic } from './topics';

/**
 * The embedded MQTT broker (aedes over a `net` server) that `npm start` runs when no MQTT_URL is set
 * (docs/decisions/0120-live-sparkplug-host.md). It admits:
 * - a ship's edge node: username = the facility id or the credential's id, password = that ship's upload token (not revoked; the upload
 *   credential of features/ship-info/credentials.ts). It may publish only its own Sparkplug messages
 *   (`spBv1.0/<group>/{N,D}{BIRTH,DEATH,DATA}/<its facility id>[/...]`, the will included) and subscribe only its own
 *   commands and the host's STATE: the per-ship ACL a real Mosquitto gets from the decision's pattern file.
 * - the portal's own host application, with a secret made at each start that never leaves the process.
 * Anyone else is refused at connect (CONNACK 4, bad user name or password); a publish or subscribe outside the ACL
 * closes the client's connection (aedes's answer to a refused publish) or gets a refused subscription.
 */
export interface EmbeddedBroker {
  /** mqtt://host:port the edge nodes reach (the port chosen when MQTT_PORT is 0). */
  url: string;
  port: number;
  /** The host application's own credentials on this broker. */
  hostCredentials: { username: string; password: string };
  close(): Promise<void>;
}

const HOST_USERNAME = 'psdu-portal-host';

const refused = (): AuthenticateError =>
  Object.assign(new Error('Bad user name or password'), { returnCode: 4 as const });

/** Who a connected client is: the portal's host or a ship's edge node (its facility id). */
type Identity = { host: true } | { facilityId: string };
const identities = new WeakMap<Client, Identity>();

export async function startEmbeddedBroker(
  db: Kysely<Database>,
  options: { port: number; host: string; groupId: string; hostId: string },
): Promise<EmbeddedBroker> {
  const hostSecret = randomBytes(32).toString('base64url');
  const sameSecret = (password: Buffer | undefined) => {
    const expected = Buffer.from(hostSecret);
    return !!password && password.length === expected.length && timingSafeEqual(password, expected);
  };
  const ownTopic = (facilityId: string, topic: string) => {
    const parsed = parseTopic(topic);
    return (
      !!parsed &&
      parsed.groupId === options.groupId &&
      parsed.edgeNodeId === facilityId &&
      (EDGE_MESSAGE_TYPES as readonly string[]).includes(parsed.type)
    );
  };
  const mayReceive = (facilityId: string, filter: string) =>
    filter === stateTopic(options.hostId) ||
    filter === `${NAMESPACE}/STATE/+` ||
    filter === `${NAMESPACE}/${options.groupId}/NCMD/${facilityId}` ||
    filter === `${NAMESPACE}/${options.groupId}/DCMD/${facilityId}/+` ||
    filter === `${NAMESPACE}/${options.groupId}/DCMD/${facilityId}/#` ||
    new RegExp(`^${NAMESPACE}/${options.groupId}/DCMD/${facilityId}/[0-9a-f-]{36}$`).test(filter);

  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (username === HOST_USERNAME) {
        if (!sameSecret(password)) return done(refused(), false);
        identities.set(client, { host: true });
        return done(null, true);
      }
      if (!username || !isUuid(username) || !password) return done(refused(), false);
      resolveUploadToken(db, password.toString('utf8')).then(
        (resolved) => {
          // The user name is the facility id or (decision 0131, as on a real Mosquitto) the credential's id.
          if (!resolved || (resolved.facilityId !== username && resolved.credentialId !== username))
            return done(refused(), false);
          identities.set(client, { facilityId: resolved.facilityId });
          done(null, true);
        },
        () => done(Object.assign(new Error('Server unavailable'), { returnCode: 3 as const }), false),
      );
    },
    authorizePublish: (client, packet, done) => {
      const who = client ? identities.get(client) : undefined;
      if (!who) return done(new Error('not authorized'));
      if ('host' in who) return done(null);
      if (ownTopic(who.facilityId, packet.topic)) return done(null);
      done(new Error(`ship ${who.facilityId} may not publish on ${packet.topic}`));
    },
    authorizeSubscribe: (client, subscription, done) => {
      const who = identities.get(client);
      if (!who) return done(new Error('not authorized'));
      if ('host' in who || mayReceive(who.facilityId, subscription.topic)) return done(null, subscription);
      // A refused subscription (SUBACK 0x80), the connection stays.
      done(null, null);
    },
  });
  const server: NetServer = createServer(broker.handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const reachable = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `mqtt://${reachable}:${port}`,
    port,
    hostCredentials: { username: HOST_USERNAME, password: hostSecret },
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
