/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdio.h>

#include "lib/error.h"

int ep_error_set(struct ep_error *err, enum ep_errcode code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -(int)code;
}

const char *ep_errcode_name(enum ep_errcode code)
{
	switch (code) {
	case EP_OK:
		return "ok";
	case EP_ENOTELF:
		return "not_elf";
	case EP_ETRUNC:
		return "truncated";
	case EP_EMALFORMED:
		return "malformed";
	case EP_EUNSUP:
		return "unsupported";
	case EP_EIO:
		return "io";
	case EP_ENOMEM:
		return "no_memory";
	}
	return "unknown";
}
