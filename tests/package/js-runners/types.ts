// The npm package's types (index.d.ts), as a TypeScript user meets them: scripts/package-test.sh runs
// `tsc --noEmit --strict` on this file. A wrong option must be a type error (@ts-expect-error fails the check when
// it is not), so types that decayed to `any` fail too.
import { startDynapage, commandLine, type Dynapage, type DynapageOptions } from "dynapage";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";

const options: DynapageOptions = { port: 0, maxPageBytes: 4096, namespace: "shared", args: ["--metrics"] };
const args: string[] = commandLine(options);

export async function withServer(): Promise<string> {
  const db: Dynapage = await startDynapage(options);
  const client = new DynamoDBClient(db.clientConfig);
  client.destroy();
  await db.stop(1000);
  return `${db.endpoint} ${db.port + db.pid} ${args.length}`;
}

// @ts-expect-error: the namespace is one of three names
export const badNamespace: DynapageOptions = { namespace: "everyone" };
// @ts-expect-error: stop() takes milliseconds
export const badStop = (db: Dynapage) => db.stop("soon");
