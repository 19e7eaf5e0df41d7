"use strict";
// The JavaScript API of the npm package: startDynapage() runs the packaged static binary on a free loopback port and
// resolves once the server prints its ready line, with its endpoint, a stop() and a client configuration for the AWS
// SDK v3. Every way it can fail (no binary, a port taken, a server that exits or stays silent) rejects with an Error
// whose message says what happened and what the server printed.
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const READY = /listening on http:\/\/([^:\s]+):(\d+)/;

// The packaged binary, or $DYNAPAGE_BIN.
function binaryPath() {
  return process.env.DYNAPAGE_BIN || path.join(__dirname, "native", "dynapage");
}

// { port: 0, dbPath: "/d", maxPageBytes: 4096, metrics: true } -> ["--port", "0", "--db-path", "/d", ...]
// true gives a bare flag; false, null and undefined give nothing; `args` is appended as it is.
function commandLine(options) {
  const args = [];
  for (const [name, value] of Object.entries(options)) {
    if (name === "args" || name === "timeoutMs" || name === "binary" || value === false || value == null) continue;
    const flag = "--" + name.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
    if (value === true) args.push(flag);
    else args.push(flag, String(value));
  }
  return args.concat(options.args || []);
}

function ensureExecutable(binary) {
  try {
    fs.accessSync(binary, fs.constants.X_OK);
    return;
  } catch (e) {
    if (!fs.existsSync(binary)) {
      throw new Error(`dynapage: no binary at ${binary} (the package ships one for Linux x86-64; ` +
                      `elsewhere set DYNAPAGE_BIN to a dynapage binary)`);
    }
  }
  fs.chmodSync(binary, 0o755);  // some archive tools drop the execute bit
}

/**
 * Starts dynapage. Options are its flags in camelCase (port defaults to 0, a free port), plus `args` (more
 * arguments), `binary` (a path) and `timeoutMs` (how long to wait for the ready line, default 10 s).
 */
function startDynapage(options = {}) {
  options = { port: 0, ...options };
  const binary = options.binary || binaryPath();
  const timeoutMs = options.timeoutMs ?? 10000;
  return new Promise((resolve, reject) => {
    try {
      ensureExecutable(binary);
    } catch (e) {
      reject(e);
      return;
    }
    const child = spawn(binary, commandLine(options), { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const fail = (message) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill("SIGKILL");
      const said = stderr.trim() || stdout.trim();
      reject(new Error(`dynapage: ${message}` + (said ? `; it said: ${said}` : "")));
    };
    const timer = setTimeout(() => fail(`not ready within ${timeoutMs} ms (${binary})`), timeoutMs);
    child.on("error", (e) => fail(`cannot run ${binary}: ${e.message}`));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code, signal) => {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const hint = /cannot listen/.test(stderr) ? " (the port is taken: pass port: 0 for a free one)" : "";
      fail(`${how} before it was ready${hint}`);
    });
    child.stdout.on("data", (chunk) => {
      if (settled) return;
      stdout += chunk;
      const match = READY.exec(stdout);
      if (!match || !stdout.includes("\n")) return;
      settled = true;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout.resume();
      // A server left running (a test that failed before stop()) must neither keep Node alive nor outlive it.
      child.unref();
      child.stdout.unref();
      child.stderr.unref();
      const killOnExit = () => child.kill("SIGTERM");
      process.once("exit", killOnExit);
      child.once("exit", () => process.removeListener("exit", killOnExit));
      resolve(runningServer(child, Number(match[2])));
    });
  });
}

function runningServer(child, port) {
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", resolve);
  });
  return {
    endpoint,
    port,
    pid: child.pid,
    // For `new DynamoDBClient(db.clientConfig)`; any credentials work, and each access key has its own tables.
    clientConfig: {
      endpoint,
      region: "us-east-1",
      credentials: { accessKeyId: "dynapage", secretAccessKey: "dynapage" },
    },
    /** SIGTERM (a clean shut-down), SIGKILL after timeoutMs; resolves when the process is gone. */
    async stop(timeoutMs = 5000) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

module.exports = { startDynapage, binaryPath, commandLine };
