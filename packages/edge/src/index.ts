export {
  EdgeNode,
  DEFAULT_BUFFER_MAX_BYTES,
  type ChannelDefinition,
  type DataSourceDefinition,
  type EdgeLog,
  type EdgeNodeOptions,
  type EdgeNodeStats,
  type EdgeNodeStatus,
  type LogLevel,
  type Sample,
} from './edge-node';
export { DiskBuffer, type Batch, type DroppedSamples } from './buffer';
export {
  pipeFeed,
  feedOf,
  scanFolder,
  type FeedSample,
  type ParsedFile,
  type WatchFolderOptions,
  type WatchedDataSource,
} from './sources';
export { startDemoStream, demoMinute, type DemoStream, type DemoStreamOptions } from './demo';
export * from './sparkplug';
