import fs from 'node:fs';
import path from 'node:path';
import { EdgeNode, scanFolder, type ParsedFile } from '@portal/edge';
import { uploadCredentialIdOf } from '@portal/contracts/ship-info';
import type { DelimitedReaderConfiguration, XlsxReaderConfiguration } from '@portal/contracts/readers';
import { parseDataFile } from '../../../readers';
import { DEFAULT_BUFFER_MEGABYTES, type UploaderConfig, type UploaderLog } from './config';

const MEGABYTE = 1024 * 1024;

/**
 * The uploader's edge-node mode: the watch folder's logger files are parsed with the portal's own readers (one home
 * for parsing, apps/api/src/readers, bundled in) and their samples published over MQTT Sparkplug B by an edge node
 * (packages/edge) with its store and forward buffer on disk.
 */
export function edgeNodeUploader(config: UploaderConfig, configDir: string, token: string, log: UploaderLog) {
  if (!config.mqttUrl)
    throw new Error('The edge-node mode needs "mqttUrl" in config.json (the broker address).');
  const dataSources = config.dataSources ?? [];
  const node = new EdgeNode({
    mqttUrl: config.mqttUrl,
    ...(config.groupId ? { groupId: config.groupId } : {}),
    facilityId: config.facilityId,
    token,
    // The MQTT user name: the credential's id (decision 0131), or the facility id for a token of another shape.
    username: uploadCredentialIdOf(token) ?? config.facilityId,
    stateDir: path.resolve(configDir, config.edgeStateDir || 'psdu-edge'),
    dataSources: dataSources.map((d) => ({
      id: d.id,
      channels: (d.channels ?? []).map((c) => ({
        name: c.name,
        unit: c.unit ?? null,
        localId: c.localId ?? null,
      })),
    })),
    bufferMaxBytes: Math.max(1, Number(config.bufferMegabytes ?? DEFAULT_BUFFER_MEGABYTES)) * MEGABYTE,
    ...(config.mqttCaFile
      ? { mqtt: { ca: fs.readFileSync(path.resolve(configDir, config.mqttCaFile)) } }
      : {}),
    log: (level, message) => log(level === 'info' ? '' : `${level}:`, message),
  });
  const watchFolder = path.resolve(configDir, config.watchFolder || 'outbox');

  const parse = async (
    file: { fileName: string; content: Buffer },
    dataSourceId: string,
  ): Promise<ParsedFile> => {
    const source = dataSources.find((d) => d.id === dataSourceId);
    if (!source?.readerId)
      throw new Error(
        `config.json has no reader for the data source ${source?.name ?? dataSourceId}: download the package again`,
      );
    return parseDataFile(
      file,
      {
        readerId: source.readerId,
        configuration: source.readerConfiguration as DelimitedReaderConfiguration | XlsxReaderConfiguration,
      },
      { utcTimezoneOffsetInMinutes: source.utcOffsetMinutes ?? 0 },
    );
  };

  let scanning: Promise<unknown> = Promise.resolve();
  const scan = () => {
    scanning = scanning.then(() =>
      scanFolder({
        node,
        folder: watchFolder,
        defaultDataSourceId: config.dataSourceId,
        dataSources: dataSources.map((d) => ({ id: d.id, name: d.name })),
        parse,
        stateFile: path.resolve(configDir, 'psdu-edge-files.json'),
        settleMs: Math.max(0, Number(config.settleSeconds ?? 5)) * 1000,
        log: (level, message) => log(level === 'info' ? '' : `${level}:`, message),
      }).catch((error: Error) => log('error:', error.message)),
    );
    return scanning;
  };

  return { node, watchFolder, scan };
}
