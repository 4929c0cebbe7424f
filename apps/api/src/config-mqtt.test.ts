import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { brokerAdminOf } from './features/ship-info/broker-credentials';

/** MQTT_DYNSEC and MQTT_CA_FILE (docs/decisions/0131-mosquitto-credentials-and-tls.md), read at start. */
describe('a real Mosquitto in the configuration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-config-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
  const load = (env: Record<string, string>) => loadConfig(env as NodeJS.ProcessEnv, []);

  it("reads the CA file, and makes MQTT_URL's user the broker admin", () => {
    const caFile = path.join(dir, 'ca.crt');
    fs.writeFileSync(caFile, PEM);
    const config = load({
      MQTT_URL: 'mqtts://psdu-portal:p%40ss@broker.example.com:8883',
      MQTT_DYNSEC: 'on',
      MQTT_CA_FILE: caFile,
      MQTT_GROUP_ID: 'fleet',
    });
    expect(config.mqttCa?.toString('utf8')).toBe(PEM);
    expect(brokerAdminOf(config)).toEqual({
      url: 'mqtts://broker.example.com:8883',
      username: 'psdu-portal',
      password: 'p@ss',
      ca: Buffer.from(PEM),
      groupId: 'fleet',
    });
  });

  it('provisions nothing by default, on the embedded broker or with live data off', () => {
    expect(brokerAdminOf(load({ MQTT_URL: 'mqtt://u:p@127.0.0.1:1883' }))).toBeNull();
    expect(brokerAdminOf(load({ MQTT_DYNSEC: 'off' }))).toBeNull();
    expect(load({}).mqttCa).toBeNull();
    expect(
      brokerAdminOf(load({ MQTT_URL: 'mqtt://u:p@127.0.0.1:1883', MQTT_DYNSEC: 'on', LIVE: 'off' })),
    ).toBeNull();
  });

  it.each([
    [{ MQTT_DYNSEC: 'on' }, /MQTT_DYNSEC is on: set MQTT_URL with the broker's dynamic security admin/],
    [
      { MQTT_DYNSEC: 'on', MQTT_URL: 'mqtts://broker.example.com:8883' },
      /MQTT_DYNSEC is on: set MQTT_URL with the broker's dynamic security admin/,
    ],
    [{ MQTT_DYNSEC: 'yes' }, /MQTT_DYNSEC/],
    [
      { MQTT_CA_FILE: '/nonexistent/ca.crt' },
      /MQTT_CA_FILE: \/nonexistent\/ca.crt cannot be read \(ENOENT\)/,
    ],
  ])('refuses %j', (env, message) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(message);
  });

  it('refuses a CA file that is no PEM certificate', () => {
    const file = path.join(dir, 'key.txt');
    fs.writeFileSync(file, 'not a certificate');
    expect(() => load({ MQTT_CA_FILE: file })).toThrow(/MQTT_CA_FILE: .*key.txt is not a PEM certificate/);
  });
});
