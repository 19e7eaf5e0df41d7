// Vitest with the README's vitest.config.js (see orders.cjs).
import { test } from "vitest";
import { ordersOfOwnAccessKey } from "./orders.cjs";

test("the SDK v3 reaches the globalSetup's server, in a namespace of its own", async () => {
  await ordersOfOwnAccessKey("vitest-a");
});
