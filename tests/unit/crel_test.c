/* SPDX-License-Identifier: MIT */
/*
 * lib/crel.c on streams written here byte by byte, each value derived by
 * hand from the format (lib/crel.h): the LEB128 limits, 32-bit wrapping,
 * falling offsets, and the sizer's shift choice.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/crel.h"
#include "tests/unit/check.h"

/* Decode all of p[0..n); returns entries, or -1 with *why set. */
static int decode(const uint8_t *p, size_t n, bool is64, struct ep_crel_rel *out, size_t max,
		  const char **why)
{
	struct ep_crel_header h;
	struct ep_crel_state st = { 0 };
	static char buf[128]; /* *why may point into it after the return */
	size_t k = 0;
	int got;

	if (ep_crel_header_read(p, n, &h, buf, sizeof(buf), why))
		return -1;
	while (k < max &&
	       (got = ep_crel_next(p, n, &h, is64, &st, &out[k], buf, sizeof(buf), why)) > 0)
		k++;
	if (k < max && got < 0)
		return -1;
	return (int)k;
}

int main(void)
{
	struct ep_crel_rel r[4];
	const char *why = NULL;

	/*
	 * Header 0x0c: count 1, addend bit, shift 0.  Flags byte 0xf8: the
	 * offset's low 4 bits are 0xf (0xf8 >> 3 = 31, less the continuation's
	 * 16), then a ULEB128 of 60 one-bits (nine bytes) shifted left by 4:
	 * 2^64 - 1 in all.
	 */
	{
		static const uint8_t p[] = { 0x0c, 0xf8, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0xff, 0xff, 0xff, 0x0f };
		CHECK(decode(p, sizeof(p), true, r, 4, &why) == 1);
		CHECK(r[0].r_offset == UINT64_MAX);
	}
	/* The same in ELFCLASS32: the offset wraps at 32 bits. */
	{
		static const uint8_t p[] = { 0x0c, 0xf8, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0xff, 0xff, 0xff, 0x0f };
		CHECK(decode(p, sizeof(p), false, r, 4, &why) == 1);
		CHECK(r[0].r_offset == UINT32_MAX);
	}
	/* A ULEB128 with a bit past 63: the tenth byte (at bit 63) may only be 0 or 1. */
	{
		static const uint8_t p[] = { 0x0c, 0x80, 0xff, 0xff, 0xff, 0xff,
					     0xff, 0xff, 0xff, 0xff, 0xff, 0x03 };
		CHECK(decode(p, sizeof(p), true, r, 4, &why) == -1);
		CHECK(why && strstr(why, "offset delta does not fit 64 bits"));
	}
	/* Padding bytes past bit 63 that add nothing are accepted, as LLVM does. */
	{
		static const uint8_t p[] = { 0x0c, 0x88, 0x80, 0x80, 0x80, 0x80, 0x80,
					     0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
		CHECK(decode(p, sizeof(p), true, r, 4, &why) == 1);
		/* 0x88 >> 3 = 17: 1 + 16 (the continuation bit), less 16; ULEB 0. */
		CHECK(r[0].r_offset == 1);
	}
	/*
	 * Two entries, shift 2 (header 2 << 3 | 4 | 2 = 0x16): entry 0 flags 7,
	 * symbol +5, type +2, addend SLEB128 0x7c (-4); entry 1 offset delta 3
	 * (byte 3 << 3 = 0x18) with the symbol going back 3 (0x7d) and the
	 * addend -0x80000000 - (-4) as an SLEB128 of 5 bytes.
	 */
	{
		static const uint8_t p[] = { 0x16, 0x07, 0x05, 0x02, 0x7c, 0x1d,
					     0x7d, 0x84, 0x80, 0x80, 0x80, 0x78 };
		CHECK(decode(p, sizeof(p), false, r, 4, &why) == 2);
		CHECK(r[0].r_offset == 0 && r[0].r_sym == 5 && r[0].r_type == 2 &&
		      r[0].r_addend == -4);
		CHECK(r[1].r_offset == 12 && r[1].r_sym == 2 && r[1].r_type == 2 &&
		      r[1].r_addend == INT32_MIN);
	}
	/* Without the header's addend bit, flag bit 2 is an offset bit. */
	{
		static const uint8_t p[] = { 0x08, 0x04 };
		CHECK(decode(p, sizeof(p), true, r, 4, &why) == 1);
		CHECK(r[0].r_offset == 1 && r[0].r_addend == 0);
	}
	/* Sizer: the two entries above give back their 12 bytes (ELFCLASS32). */
	{
		struct ep_crel_sizer z = { .is64 = false };

		ep_crel_sizer_add(&z, 0, 5, 2, -4);
		ep_crel_sizer_add(&z, 12, 2, 2, INT32_MIN);
		CHECK(ep_crel_sizer_bytes(&z) == 12);
	}
	/*
	 * Sizer, ELFCLASS64: offsets 8 and 0 (shift 3; the fall 0 - 8 >> 3 is
	 * 2^61 - 1, past 4 bits: ULEB128 of 2^57 - 1, 9 bytes), symbols 1 then
	 * 0 (-1: one byte), no addends: header 1, entry 0 flags + symbol
	 * +1 = 2, entry 1 1 + 9 + 1 = 11: 14 bytes.
	 */
	{
		struct ep_crel_sizer z = { .is64 = true };

		ep_crel_sizer_add(&z, 8, 1, 0, 0);
		ep_crel_sizer_add(&z, 0, 0, 0, 0);
		CHECK(ep_crel_sizer_bytes(&z) == 14);
	}
	return check_status();
}
