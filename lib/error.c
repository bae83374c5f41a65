/* SPDX-License-Identifier: MIT */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/error.h"

/* Of a message too long for struct ep_error, the bytes kept from its start. */
#define EP_ERRMSG_HEAD 160

int ep_error_set(struct ep_error *err, enum ep_errcode code, const char *fmt, ...)
{
	const size_t max = sizeof(err->message) - 1;
	va_list ap;
	char *full;
	int n;

	if (err) {
		err->code = code;
		va_start(ap, fmt);
		n = vasprintf(&full, fmt, ap);
		va_end(ap);
		if (n < 0) {
			va_start(ap, fmt);
			vsnprintf(err->message, sizeof(err->message), fmt, ap);
			va_end(ap);
		} else if ((size_t)n <= max) {
			memcpy(err->message, full, (size_t)n + 1);
		} else {
			/*
			 * A path deep enough ends the message past the buffer: keep
			 * its start and its end, which says what is wrong.
			 */
			memcpy(err->message, full, EP_ERRMSG_HEAD);
			memcpy(err->message + EP_ERRMSG_HEAD, "...", 3);
			memcpy(err->message + EP_ERRMSG_HEAD + 3,
			       full + n - (max - EP_ERRMSG_HEAD - 3), max - EP_ERRMSG_HEAD - 3);
			err->message[max] = '\0';
		}
		if (n >= 0)
			free(full);
		ep_text_clean(err->message);
	}
	return -(int)code;
}

/*
 * Length of the clean character at s[0..n), or 0 when it is a control
 * character or not valid UTF-8 (RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF).
 */
static size_t clean_char(const unsigned char *s, size_t n)
{
	uint32_t c;
	size_t len, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || (c >= 0x80 && c <= 0x9f))
		return 0;
	return len;
}

/*
 * Whether the 8 bytes at s are all printable ASCII (0x20 to 0x7e): no byte
 * below 0x20 and none above 0x7e, each tested in every byte at once
 * ("Bit Twiddling Hacks", hasless() and hasmore(), exact for n <= 128).
 */
static inline bool ascii_printable8(const unsigned char *s)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t w;

	memcpy(&w, s, 8);
	return !(((w - ones * 0x20) & ~w & highs) | (((w + ones * (127 - 0x7e)) | w) & highs));
}

bool ep_text_is_clean(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		/* Printable ASCII, most names, without a call per byte: 8 at a time. */
		if (n - i >= 8 && ascii_printable8(p + i)) {
			i += 8;
			continue;
		}
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		k = clean_char(p + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

void ep_text_clean(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t n = strlen(s), i = 0, k;

	while (i < n) {
		k = clean_char(p + i, n - i);
		if (!k) {
			p[i++] = '?';
			continue;
		}
		i += k;
	}
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
