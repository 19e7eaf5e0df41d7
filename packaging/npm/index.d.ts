// Types of the dynapage npm package (index.js).

/** dynapage's flags in camelCase (`maxPageBytes` is `--max-page-bytes`); `true` passes a bare flag. */
export interface DynapageOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Keep the data in this directory (default: in memory). */
  dbPath?: string;
  /** Who shares tables: "access-key-region" (default), "region" or "shared". */
  namespace?: "access-key-region" | "region" | "shared";
  /** Query/Scan page size in bytes (DynamoDB's 1 MB by default). */
  maxPageBytes?: number;
  /** Tables stay CREATING/DELETING for this many milliseconds. */
  transientStatusDelay?: number;
  /** Other flags of `dynapage --help`, camelCased. */
  [flag: string]: string | number | boolean | string[] | undefined | null;
  /** Further command-line arguments, passed as they are. */
  args?: string[];
  /** The binary to run (default: the packaged one, or $DYNAPAGE_BIN). */
  binary?: string;
  /** How long to wait for the server to be ready (default 10000 ms). */
  timeoutMs?: number;
}

/** A configuration for the AWS SDK v3: `new DynamoDBClient(db.clientConfig)`. */
export interface DynapageClientConfig {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface Dynapage {
  /** "http://127.0.0.1:PORT" */
  endpoint: string;
  port: number;
  pid: number;
  clientConfig: DynapageClientConfig;
  /** Stops the server (SIGTERM, then SIGKILL after timeoutMs, default 5000); resolves once it has exited. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Starts dynapage; rejects with a clear Error if the binary is missing, the port is taken or the server exits. */
export function startDynapage(options?: DynapageOptions): Promise<Dynapage>;
/** The binary startDynapage runs by default. */
export function binaryPath(): string;
/** The command-line arguments startDynapage passes for these options. */
export function commandLine(options: DynapageOptions): string[];
