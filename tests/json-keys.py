#!/usr/bin/env python3
"""Keys of elfplt's JSON, as the schemas and as the manual pages have them.

    json-keys.py TOP_SRCDIR

For each schema/elfplt-KIND.schema.json: the property names it declares
(recursively, through $defs) against the keys its pages name: elfplt-json(7)
(every kind) and the "JSON OUTPUT" section of elfplt-KIND(1).  A key in the
pages is a bold word (*key*, *a.b.c*, *list[]*) of lower-case letters, digits
and underscores; the migration sections ("FROM ... TO ...") name old keys and
are left out.  Prints each key one side has and the other lacks, and exits 1
if there is one; words of the pages that are values rather than keys (error
codes, ELF field names) are listed in NOT_KEYS below, with why.
"""
import glob
import json
import os
import re
import sys

# Bold words of the pages' JSON sections that are not keys of elfplt's JSON.
NOT_KEYS = {
    # elfplt-json(7) ERRORS: the values of error.code
    "not_elf", "truncated", "malformed", "unsupported", "io", "no_memory",
    # elfplt-json(7) WARNINGS: the values of warnings[].code (the schemas'
    # enum of that key)
    "section0_nonzero", "symtab_info", "symtab_local_order", "symtab_unreadable",
    "strtab_unterminated", "symbol_name", "symbol_shndx", "reloc_info", "reloc_link",
    "dynamic_mismatch", "dynamic_unreadable", "debug_file", "warnings_dropped",
    # ELF fields the pages refer to (gABI names), not keys of the JSON
    "e_shnum", "e_shstrndx", "e_phnum", "st_shndx",
    "sh_size", "ch_size", "ch_type", "sh_info", "sh_link", "sh_entsize", "e_machine",
    "r_sym", "r_offset", "r_addend", "st_name", "sh_type", "sh_flags",
    # the commands, named where the pages say which document is whose
    "elfplt", "stats", "plt", "load", "diff",
}


def schema_keys(node, out):
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            out.update(props)
        for k, v in node.items():
            if k in ("properties",):
                for sub in v.values():
                    schema_keys(sub, out)
            elif k not in ("enum", "const", "required", "description", "title"):
                schema_keys(v, out)
    elif isinstance(node, list):
        for v in node:
            schema_keys(v, out)
    return out


BOLD = re.compile(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])")
KEY = re.compile(r"^[a-z_][a-z0-9_]*$")


def page_keys(text):
    keys = set()
    for m in BOLD.finditer(text):
        word = m.group(1).replace("\\_", "_").replace("\\", "")
        # Options (--top), pages (elfplt-json(7)), section names (.plt.idx)
        # and key suffixes (_bytes) are not keys.
        if word[0] in "-._" or "(" in text[m.end():m.end() + 1]:
            continue
        for part in word.replace("[]", "").split("."):
            if KEY.match(part):
                keys.add(part)
    return keys


def sections(path, keep):
    """The text of path's '# ' sections for which keep(title) is true."""
    out, on = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("# "):
                on = keep(line[2:].strip())
                continue
            if on:
                out.append(line)
    return "".join(out)


def main():
    top = sys.argv[1]
    json7 = sections(os.path.join(top, "man/elfplt-json.7.scd"),
                     lambda t: not t.startswith("FROM ") and t not in ("NAME", "SEE ALSO"))
    common = page_keys(json7)
    all_schema = set()
    bad = 0
    for path in sorted(glob.glob(os.path.join(top, "schema", "*.schema.json"))):
        kind = os.path.basename(path)[: -len(".schema.json")]
        with open(path) as f:
            keys = schema_keys(json.load(f), set())
        all_schema |= keys
        page = os.path.join(top, "man", kind + ".1.scd")
        documented = set(common)
        if os.path.exists(page):
            documented |= page_keys(sections(page, lambda t: t.startswith("JSON")))
        missing = sorted(keys - documented)
        for k in missing:
            print("FAIL: %s: key '%s' is in the schema but not in elfplt-json(7) or %s(1)'s JSON section"
                  % (kind, k, kind))
        bad += len(missing)
        print("ok: %s: %d keys, %d of them named by the pages" % (kind, len(keys), len(keys) - len(missing)))
    for k in sorted(common - all_schema - NOT_KEYS):
        print("FAIL: elfplt-json(7) names '%s', which no schema has" % k)
        bad += 1
    for path in sorted(glob.glob(os.path.join(top, "man", "elfplt-*.1.scd"))):
        kind = os.path.basename(path)[: -len(".1.scd")]
        if not os.path.exists(os.path.join(top, "schema", kind + ".schema.json")):
            continue
        words = page_keys(sections(path, lambda t: t.startswith("JSON")))
        for k in sorted(words - all_schema - NOT_KEYS):
            print("FAIL: %s(1)'s JSON section names '%s', which no schema has" % (kind, k))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
