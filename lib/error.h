/* SPDX-License-Identifier: MIT */
#ifndef ELFPLT_ERROR_H
#define ELFPLT_ERROR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * An error from lib/: a class the caller can branch on and a one-line message
 * that already names the file and, where one is to blame, the section, in the
 * form "PATH: what is wrong (section N NAME)".  lib/ never prints; cmd/ prints
 * the message after "elfplt: " and puts both into the JSON "error" object.
 * The message is always one line of valid UTF-8: ep_error_set() passes it
 * through ep_text_clean(), whatever bytes a path or section name held.
 */
enum ep_errcode {
	EP_OK = 0,
	EP_ENOTELF,    /* not an ELF file (or, compressed, not an ELF inside) */
	EP_ETRUNC,     /* the file ends before something it declares */
	EP_EMALFORMED, /* a field is inconsistent with the file or another field */
	EP_EUNSUP,     /* valid, but of a kind elfplt does not handle */
	EP_EIO,	       /* open, read, stat or mmap failed (errno in the message) */
	EP_ENOMEM,     /* allocation failed or a size cap was hit */
};

/* message: at most this many bytes including the terminating NUL. */
#define EP_ERRMSG_MAX 512

struct ep_error {
	enum ep_errcode code;
	char message[EP_ERRMSG_MAX];
};

/*
 * Fill err with code and a printf-style message; returns -code so callers can
 * write "return ep_error_set(...)".  err may be NULL (the error is dropped).
 * A message longer than EP_ERRMSG_MAX - 1 bytes (a path of thousands) keeps
 * its first 160 bytes and its end, which says what is wrong, joined by "...".
 */
int ep_error_set(struct ep_error *err, enum ep_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Text that came from a file or a path, made fit for one line of a message
 * and for a JSON string: true when s[0..n) is valid UTF-8 without control
 * characters (C0, DEL, C1).  ep_text_clean() rewrites the NUL-terminated s
 * in place, each byte of a bad sequence or control character becoming '?',
 * so it never grows.
 */
bool ep_text_is_clean(const char *s, size_t n);
void ep_text_clean(char *s);

/* The stable JSON name of code: "not_elf", "truncated", "malformed", ... */
const char *ep_errcode_name(enum ep_errcode code);

#endif
