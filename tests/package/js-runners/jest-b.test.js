"use strict";
// Jest with the README's jest.config.js (see orders.cjs).
const { ordersOfOwnAccessKey } = require("./orders.cjs");

test("the SDK v3 reaches the globalSetup's server, in a namespace of its own", async () => {
  await ordersOfOwnAccessKey("jest-b");
});
