#!/usr/bin/env python3
"""Validate elfplt's JSON documents against the schemas in schema/.

    validate-json.py SCHEMA_DIR DOC_DIR_OR_FILE...

Each document names its kind in its "schema" key, "elfplt-KIND/N"; it is
validated against SCHEMA_DIR/elfplt-KIND.schema.json (JSON Schema draft
2020-12, python3-jsonschema), whose "schema" property says which versions it
describes.  Every *.schema.json there is loaded, so a new document kind needs
only its schema file.  A directory holds the copies tests/elfplt-json-copy.sh
kept: X.json with X.rc (elfplt's exit status) and X.args (its arguments).
An empty copy (elfplt wrote nothing, e.g. a usage error) is not a document;
one that is not JSON fails unless elfplt was killed (status above 1).

A document of more than MAX_FILES file objects (a whole module tree: tens
of MB, minutes for a Python validator) is validated with every failed file
and an evenly spaced MAX_FILES of the others, first and last included; the
rest of the document (totals, top-level keys) whole.

Prints one line per failure and a summary "ok: N documents valid (...)";
exits 1 if any document fails, 2 if the validator cannot run.
"""
import glob
import json
import os
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("FAIL: python3-jsonschema is missing (./bootstrap --deps installs it)")
    sys.exit(2)


MAX_FILES = 1000


def sample_files(doc):
    """Thin doc["files"] to MAX_FILES (and every failed file); returns how many were left out."""
    files = doc.get("files") if isinstance(doc, dict) else None
    if not isinstance(files, list) or len(files) <= MAX_FILES:
        return 0
    step = (len(files) + MAX_FILES - 1) // MAX_FILES
    keep = [f for i, f in enumerate(files)
            if i % step == 0 or i == len(files) - 1 or (isinstance(f, dict) and "error" in f)]
    doc["files"] = keep
    return len(files) - len(keep)


def load_schemas(schema_dir):
    """{kind: validator} for every SCHEMA_DIR/elfplt-KIND.schema.json."""
    validators = {}
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
        with open(path) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        kind = os.path.basename(path)[: -len(".schema.json")]
        validators[kind] = Draft202012Validator(
            schema, format_checker=Draft202012Validator.FORMAT_CHECKER
        )
    return validators


def documents(args):
    """(path, exit status or None, arguments) of every document named."""
    for a in args:
        if os.path.isdir(a):
            for p in sorted(glob.glob(os.path.join(a, "*.json"))):
                base = p[: -len(".json")]
                rc = args_line = None
                if os.path.exists(base + ".rc"):
                    rc = int(open(base + ".rc").read().strip() or 0)
                if os.path.exists(base + ".args"):
                    args_line = open(base + ".args", errors="replace").read().strip()
                yield p, rc, args_line
        else:
            yield a, None, None


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    validators = load_schemas(sys.argv[1])
    counts = {}
    bad = sampled = 0
    for path, rc, args in documents(sys.argv[2:]):
        what = "elfplt %s" % args if args else path
        with open(path, "rb") as f:
            text = f.read()
        if not text.strip():
            continue
        try:
            doc = json.loads(text)
        except ValueError as e:
            if rc is not None and rc > 1:
                print("note: %s: exit %d, its output is not a document" % (what, rc))
                continue
            print("FAIL: %s: not JSON: %s" % (what, e))
            bad += 1
            continue
        name = doc.get("schema") if isinstance(doc, dict) else None
        if not isinstance(name, str) or "/" not in name:
            print("FAIL: %s: no \"schema\": \"elfplt-KIND/N\" key" % what)
            bad += 1
            continue
        kind = name.split("/", 1)[0]
        if kind not in validators:
            print("FAIL: %s: no schema/%s.schema.json for \"%s\"" % (what, kind, name))
            bad += 1
            continue
        left_out = sample_files(doc)
        if left_out:
            sampled += 1
        errors = sorted(validators[kind].iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            # In a oneOf (a file object or a failed one), the deepest cause.
            while e.context:
                e = jsonschema.exceptions.best_match(e.context)
            where = "/".join(str(p) for p in e.absolute_path)
            print("FAIL: %s: %s: at /%s: %s" % (what[:200], name, where, e.message[:200]))
        if errors:
            bad += 1
            continue
        counts[name] = counts.get(name, 0) + 1
    total = sum(counts.values())
    detail = ", ".join("%s %d" % kv for kv in sorted(counts.items()))
    print("ok: %d documents valid against schema/ (%s)%s" % (
        total, detail or "none",
        "; %d of them with %d file objects sampled" % (sampled, MAX_FILES) if sampled else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
