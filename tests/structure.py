#!/usr/bin/env python3
"""structure.py [--list] [SRC] — the branches on a kind above driver/ (issue
52 item 1): counted, and held to the target.

A case is asked once what it is: casefile/ describes it when it loads
(driver/profile.h: its state, what each entry steps, what its runs
measure, where its runs go, how it shards), and the layers above driver/
read that description.  A branch on a kind is a line of those layers that
asks instead which kind it holds: the kind of a state, the identity of a
model or of an entry, a flag that stands for one kind, a model's name.
The patterns below say each such question the code has asked (issue 52
names them); a line of code (comments left out) that matches one is a
branch on a kind, counted once.  What is not one: reading the case's
description (a VB_MEASURE_* bit of what the case measures: issue 52, "a
measure that a state has ... is a property of that state and its
measures"; a list of entries; what a level's plan holds), and a row's own
flag of the measures its run made (has_energy, has_attitude, contact.has:
the data of that row, which a run that failed has not).

The target (issue 52): at most TARGET such lines above driver/, and none
in sweep/ or output/.  Prints every layer's count and the total, with
--list every line; the last line is "N passed, N failed" (tests/run.sh).

The patterns are held to lines that must match and lines that must not
(SAMPLES), so that a pattern that stopped matching what it names fails
here before it hides a branch."""
import os
import re
import sys

# the layers above driver/ (docs/architecture.md)
ABOVE = ["sweep", "output", "check", "draw", "commands", "bench", "stability", "longrun"]
# none of these in these layers
NONE_IN = ["sweep", "output"]
TARGET = 20

MODEL_NAMES = ("spring|damped-spring|orbit|kepler|chain|hanging-chain|pendulum|double-pendulum|"
               "rod-pendulum|projectile|two-body|figure-eight|henon-heiles|impulse|bounce|slide|"
               "tunnel|free-body|symmetric-top")

PATTERNS = [
    # the kind of the state a case's runners carry, or a flag for it
    ("state kind", re.compile(
        r"\bVB_STATE_(RIGID_BODY|PARTICLES)\b|\bstate\.kind\b|\brigid_case\s*\(|"
        r"(->|\.)rigid\b(?!\s*\()")),
    # a norm that only a rigid body has, asked to tell a rigid body's case
    ("norm as a stand-in", re.compile(
        r"\bvb_norm_applies\w*\s*\([^;]*\bVB_NORM_(ATT|ANGVEL|DRAW)_(MAX|RMS)\b")),
    # a model recognised by its functions or its wall
    ("model identity", re.compile(
        r"\bvb_rigid_face_(model|props)\s*\(|\bvb_rigid_face_accel\b|"
        r"\bvb_model_type_has_wall\s*\(|\bhas_wall\b")),
    # whether a case is of one kind, asked of its results (a scan for one
    # kind's measures) or named for the kind
    ("has-kind test", re.compile(
        r"\bhas_rigid\b|\bvb_sweep_has_(contact|bounces)\s*\(")),
    # a capability flag that each kind alone sets (external: an engine,
    # draws: a frame loop, isolated: a plugin, refines: adaptive or an
    # accumulator, contact: a handler), and the wrappers round them
    ("one-kind capability", re.compile(
        r"(\bcaps?|\bcan|\))\.(external|draws|isolated|refines|contact)\b|\bVB_REFINES_\w+|"
        r"\bvb_sweep_(refines_tol|calls_plugin)\s*\(")),
    # an entry of the list asked what it is
    ("entry identity", re.compile(
        r"\bvb_(engine|loop|composed)_of\s*\(|\bvb_integrator_rigid_method\s*\(|"
        r"\bvb_loop_holds_frames\s*\(|\bVB_ADAPTIVE\b|\bVB_LOOP_FLAG\b")),
    # a model by its name
    ("model name", re.compile(
        r"\bstrn?cmp\s*\([^;]*\"(# model=)?(%s)[\" ]" % MODEL_NAMES)),
]

# (line, category or None): what each pattern must catch and must not
SAMPLES = [
    ("    if (vb_runner_caps_of(g, m).state.kind == VB_STATE_RIGID_BODY)", "state kind"),
    ("    size_t kept = set->rigid ? 1 : 2;", "state kind"),
    ("    .from_w = rigid_case(c),", "state kind"),
    ("    int rigid = vb_norm_applies(c, VB_NORM_ATT_MAX);", "norm as a stand-in"),
    ("    if (vb_norm_applies(s->c, VB_NORM_DRAW_MAX))", "norm as a stand-in"),
    ("    const vb_rigid_model *rm = vb_rigid_face_model(t, self);", "model identity"),
    ("    if (!vb_model_type_has_wall(mtype))", "model identity"),
    ("    if (s->jobs[k].res.has_rigid && x)", "has-kind test"),
    ("    return vb_sweep_has_contact(s);", "has-kind test"),
    ("    if (!jc->iso || vb_sweep_caps(c, i).external || here)", "one-kind capability"),
    ("    has_loop |= caps.draws;", "one-kind capability"),
    ("    if (cap.isolated)", "one-kind capability"),
    ("    b->dt = can.refines == VB_REFINES_TOL ? a : b;", "one-kind capability"),
    ("    int adaptive = vb_sweep_refines_tol(s->c, r->integ);", "one-kind capability"),
    ("    const vb_engine *e = vb_engine_of(integ);", "entry identity"),
    ("    if (g->flags & VB_ADAPTIVE)", "entry identity"),
    ("    if (!strcmp(name, \"chain\") && x)", "model name"),
    ("    any = strncmp(t.comments[i], \"# model=tunnel \", 15) == 0;", "model name"),
    ("    !strcmp(model, \"orbit\") ? a : b", "model name"),
    # what is not a branch on a kind
    ("    if (p->measures & VB_MEASURE_ATTITUDE)", None),
    ("    const vb_contact_result *c = &j->res.contact;", None),
    ("    if (!j->res.contact.has)", None),
    ("    vb_rigid_state s;", None),
    ("    if (!strcmp(key, \"integrator\"))", None),
    ("    if (vb_norm_applies(c, VB_NORM_ENERGY_MAX))", None),
    ("    r->rigid_body = body;", None),
]

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def code_lines(text):
    """The lines of a C file with its comments blanked (newlines kept)."""
    return COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text).split("\n")


def category(line):
    for name, rx in PATTERNS:
        if rx.search(line):
            return name
    return None


def branches(src):
    """[(layer, path, line number, category, text)] above driver/."""
    found = []
    for layer in ABOVE:
        d = os.path.join(src, layer)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith((".c", ".h", ".cpp")):
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8") as f:
                lines = code_lines(f.read())
            for no, line in enumerate(lines, 1):
                cat = category(line)
                if cat:
                    found.append((layer, os.path.join(layer, name), no, cat, line.strip()))
    return found


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    here = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    src = args[0] if args else os.path.join(here, "src")
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL structure: " + what)

    for line, want in SAMPLES:
        got = category(line)
        check(got == want, "pattern: %r is %s, want %s" % (line.strip(), got, want))

    found = branches(src)
    if listing:
        for layer, path, no, cat, text in found:
            print("%s:%d: %s: %s" % (path, no, cat, text))
    per = {layer: 0 for layer in ABOVE}
    kinds = {}
    for layer, _, _, cat, _ in found:
        per[layer] += 1
        kinds[cat] = kinds.get(cat, 0) + 1
    print("structure: branches on a kind above driver/: %d (target <= %d, none in %s)"
          % (len(found), TARGET, " or ".join(d + "/" for d in NONE_IN)))
    print("  by layer: " + ", ".join("%s/ %d" % (l, per[l]) for l in ABOVE))
    print("  by kind:  " + ", ".join("%s %d" % (k, kinds.get(k, 0)) for k, _ in PATTERNS))
    check(len(found) <= TARGET,
          "%d branches on a kind above driver/, more than %d (--list names them)"
          % (len(found), TARGET))
    for layer in NONE_IN:
        check(per[layer] == 0, "%d branches on a kind in %s/, want none: %s" % (
            per[layer], layer, "; ".join("%s:%d" % (p, n) for l, p, n, _, _ in found
                                         if l == layer)[:600]))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
