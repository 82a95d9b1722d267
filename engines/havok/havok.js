// havok.js — what Havok's two adapters share (adapter.js, protocol 3;
// contact.js, protocol 4): the module loaded once, a result checked, and a
// body's state after a step as the protocol's 13 numbers.
"use strict";
const fs = require("fs");
const path = require("path");
const HavokPhysics = require("@babylonjs/havok");

let HK = null;

// the module, instantiated once a process: the UMD build fetches
// HavokPhysics.wasm by URL, which node cannot, so it is handed the bytes
async function load() {
  if (!HK) {
    const wasm = path.join(path.dirname(require.resolve("@babylonjs/havok")), "HavokPhysics.wasm");
    HK = await HavokPhysics({ wasmBinary: fs.readFileSync(wasm) });
  }
  return HK;
}

// a call's result: anything but RESULT_OK is an error naming the call
function ok(result, what) {
  if (result !== HK.Result.RESULT_OK) throw new Error(`${what} failed (Havok result ${JSON.stringify(result)})`);
}

// a body's x, q (w first), v, w (world frame)
function bodyState(body) {
  const [, [p, q]] = HK.HP_Body_GetQTransform(body);
  const [, v] = HK.HP_Body_GetLinearVelocity(body);
  const [, w] = HK.HP_Body_GetAngularVelocity(body);
  return [p[0], p[1], p[2], q[3], q[0], q[1], q[2], v[0], v[1], v[2], w[0], w[1], w[2]];
}

// one step of the world, then the body's 13 numbers
function stepState(world, body, h) {
  ok(HK.HP_World_Step(world, h), "HP_World_Step");
  return bodyState(body);
}

module.exports = { load, ok, bodyState, stepState };
