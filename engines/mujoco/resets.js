// resets.js — MuJoCo's silent reset, found: shared by engines/mujoco/adapter.js
// (one body) and contact.js (a stack).
//
// MuJoCo's step checks the state it starts from (engine_forward.c:1849-1853,
// tag 3.12.0): a qpos or qvel, or the qacc of its forward pass, that is not
// finite or past mjMAXVAL = 1e10 (mju_isBad, engine_util_misc.c:2022;
// mjmodel.h:25) raises mjWARN_BADQPOS, _BADQVEL or _BADQACC and, unless
// mjDSBL_AUTORESET, resets mjData to the model's qpos0 at rest
// (mj_resetData in mj_checkPos, mj_checkVel, mj_checkAcc, :54-112), and the
// step goes on from there.  The rows after it are bodies at rest at qpos0,
// not the integrator's trajectory (MuJoCo Euler at 5 rad/s and 60 Hz: |w|
// 1.8e6 rad/s at 29.63 s, at rest from 29.65 s).  Each warning counts in
// d->warning[...].number: one that counted fails the run, saying when.
"use strict";

const RESETS = [["mjWARN_BADQPOS", "qpos"], ["mjWARN_BADQVEL", "qvel"], ["mjWARN_BADQACC", "qacc"]];

// the first of those warnings that has counted in data: [its name, the
// array, the dof it names], or null
function resetWarning(mujoco, data) {
  for (const [name, what] of RESETS) {
    const stat = data.warning.get(mujoco.mjtWarning[name].value); // a copy: deleted
    const n = stat.number, dof = stat.lastinfo;
    stat.delete();
    if (n > 0) return [name, what, dof];
  }
  return null;
}

module.exports = { resetWarning };
