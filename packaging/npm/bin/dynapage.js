#!/usr/bin/env node
"use strict";
// `npx dynapage [flags]`: runs the packaged binary in the foreground with the given flags (dynapage --help), passing
// SIGINT and SIGTERM on to it and exiting with its exit code.
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const { binaryPath } = require("../index.js");

const binary = binaryPath();
if (!fs.existsSync(binary)) {
  console.error(`dynapage: no binary at ${binary} (the package ships one for Linux x86-64; set DYNAPAGE_BIN)`);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("error", (e) => {
  console.error(`dynapage: cannot run ${binary}: ${e.message}`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
