/* SPDX-License-Identifier: MIT */
/*
 * SHT_CREL decoding and the exact size of LLVM's CREL encoding.  Written
 * from the format as LLVM 19 reads and writes it (llvm/Object/ELF.h
 * decodeCrel(), llvm/MC/MCELFExtras.h encodeCrel()) and Fangrui Song's
 * "A compact relocation format for ELF" (maskray.me, 2024); see lib/crel.h.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "lib/crel.h"

enum leb_status { LEB_OK = 0, LEB_TRUNCATED = -1, LEB_TOO_BIG = -2 };

/*
 * ULEB128 at p[*pos..size).  Padding bytes (0x80 ...) are accepted, as LLVM
 * accepts them; a value that does not fit 64 bits is LEB_TOO_BIG.  Never
 * reads at or past size.
 */
static enum leb_status read_uleb(const uint8_t *p, size_t size, size_t *pos, uint64_t *v)
{
	uint64_t r = 0;
	unsigned int s = 0;
	uint8_t b;

	do {
		uint64_t slice;

		if (*pos >= size)
			return LEB_TRUNCATED;
		b = p[(*pos)++];
		slice = b & 0x7f;
		if ((s >= 64 && slice) || (s == 63 && slice > 1))
			return LEB_TOO_BIG;
		if (s < 64)
			r |= slice << s;
		if (s < 64)
			s += 7;
	} while (b & 0x80);
	*v = r;
	return LEB_OK;
}

/*
 * SLEB128 at p[*pos..size), as a 64-bit two's complement value.  Bytes past
 * bit 63 must repeat the sign (0x00 or 0x7f), else LEB_TOO_BIG.
 */
static enum leb_status read_sleb(const uint8_t *p, size_t size, size_t *pos, uint64_t *v)
{
	uint64_t r = 0;
	unsigned int s = 0;
	uint8_t b;

	do {
		uint64_t slice;

		if (*pos >= size)
			return LEB_TRUNCATED;
		b = p[(*pos)++];
		slice = b & 0x7f;
		if (s == 63 && slice != 0 && slice != 0x7f)
			return LEB_TOO_BIG;
		if (s >= 64 && slice != ((r >> 63) ? 0x7fu : 0u))
			return LEB_TOO_BIG;
		if (s < 64)
			r |= slice << s;
		if (s < 64)
			s += 7;
	} while (b & 0x80);
	if (s < 64 && (b & 0x40))
		r |= ~UINT64_C(0) << s;
	*v = r;
	return LEB_OK;
}

int ep_crel_header_read(const uint8_t *p, size_t size, struct ep_crel_header *h, char *buf,
			size_t buflen, const char **why)
{
	size_t pos = 0;
	uint64_t v;

	switch (read_uleb(p, size, &pos, &v)) {
	case LEB_OK:
		break;
	case LEB_TRUNCATED:
		*why = size ? "CREL header runs past the section"
			    : "empty CREL section (no header)";
		return -1;
	case LEB_TOO_BIG:
		*why = "CREL header does not fit 64 bits";
		return -1;
	}
	h->count = v >> 3;
	h->has_addend = v & EP_CREL_HDR_ADDEND;
	h->shift = v & 3;
	h->size = pos;
	/* Every entry takes at least its flags byte: cap the count by what is left. */
	if (h->count > size - pos) {
		snprintf(buf, buflen,
			 "CREL header counts %" PRIu64 " relocations in %zu bytes after it",
			 h->count, size - pos);
		*why = buf;
		return -1;
	}
	return 0;
}

static int entry_error(enum leb_status st, uint64_t entry, const char *member, char *buf,
		       size_t buflen, const char **why)
{
	snprintf(buf, buflen, "CREL relocation %" PRIu64 ": %s %s", entry, member,
		 st == LEB_TRUNCATED ? "runs past the section" : "does not fit 64 bits");
	*why = buf;
	return -1;
}

int ep_crel_next(const uint8_t *p, size_t size, const struct ep_crel_header *h, bool is64,
		 struct ep_crel_state *st, struct ep_crel_rel *out, char *buf, size_t buflen,
		 const char **why)
{
	unsigned int flag_bits = h->has_addend ? 3 : 2;
	uint64_t mask = is64 ? UINT64_MAX : UINT32_MAX;
	enum leb_status ls;
	uint64_t v;
	uint8_t b;

	if (st->read >= h->count)
		return 0;
	if (st->pos < h->size)
		st->pos = h->size;
	if (st->pos >= size)
		return entry_error(LEB_TRUNCATED, st->read, "flags byte", buf, buflen, why);
	b = p[st->pos++];
	/* The flags byte's high bits start the offset delta; bit 7 says more follows. */
	st->offset += b >> flag_bits;
	if (b & 0x80) {
		ls = read_uleb(p, size, &st->pos, &v);
		if (ls)
			return entry_error(ls, st->read, "offset delta", buf, buflen, why);
		st->offset += (v << (7 - flag_bits)) - (0x80u >> flag_bits);
	}
	st->offset &= mask;
	if (b & 1) {
		ls = read_sleb(p, size, &st->pos, &v);
		if (ls)
			return entry_error(ls, st->read, "symbol index delta", buf, buflen, why);
		st->sym += (uint32_t)v;
	}
	if (b & 2) {
		ls = read_sleb(p, size, &st->pos, &v);
		if (ls)
			return entry_error(ls, st->read, "type delta", buf, buflen, why);
		st->type += (uint32_t)v;
	}
	if (h->has_addend && (b & 4)) {
		ls = read_sleb(p, size, &st->pos, &v);
		if (ls)
			return entry_error(ls, st->read, "addend delta", buf, buflen, why);
		st->addend = (st->addend + v) & mask;
	}
	st->read++;
	out->r_offset = (st->offset << h->shift) & mask;
	out->r_sym = st->sym;
	out->r_type = st->type;
	out->r_addend = is64 ? (int64_t)st->addend : (int64_t)(int32_t)(uint32_t)st->addend;
	return 1;
}

/* Bytes of v as ULEB128: 7 bits a byte (bits counted, not looped: per relocation). */
static inline unsigned int uleb_len(uint64_t v)
{
	return (64 - (unsigned int)__builtin_clzll(v | 1) + 6) / 7;
}

/* Bytes of v as SLEB128: 7 bits a byte, the last one's bit 6 the sign. */
static inline unsigned int sleb_len(int64_t v)
{
	/* v's magnitude bits (v >> 63 is arithmetic on every compiler elfplt builds with), plus the sign */
	uint64_t m = (uint64_t)(v ^ (v >> 63));

	return (65 - (unsigned int)__builtin_clzll(m | 1) + 6) / 7;
}

void ep_crel_sizer_add(struct ep_crel_sizer *z, uint64_t r_offset, uint32_t r_sym, uint32_t r_type,
		       int64_t r_addend)
{
	uint64_t mask = z->is64 ? UINT64_MAX : UINT32_MAX;
	uint64_t off = r_offset & mask, addend = (uint64_t)r_addend & mask;
	uint64_t delta = (off - z->offset) & mask;
	unsigned int extra = 0, shift, bits;

	z->offset_or |= off;
	z->offset = off;
	/* Deltas are stored as the encoder's 32-bit (symbol, type) or word-size signed values. */
	if (r_sym != z->sym)
		extra += sleb_len((int32_t)(r_sym - z->sym));
	z->sym = r_sym;
	if (r_type != z->type)
		extra += sleb_len((int32_t)(r_type - z->type));
	z->type = r_type;
	if (addend != z->addend)
		extra += sleb_len(z->is64 ? (int64_t)(addend - z->addend)
					  : (int64_t)(int32_t)(uint32_t)(addend - z->addend));
	z->addend = addend;
	/*
	 * Four offset bits fit beside the three flags; the rest, delta >> shift
	 * >> 4, go in a ULEB128 when nonzero: 7 of its bits a byte.
	 */
	bits = delta ? 64 - (unsigned int)__builtin_clzll(delta) : 0;
	for (shift = 0; shift < 4; shift++) {
		unsigned int rest = bits > shift + 4 ? bits - shift - 4 : 0;

		z->bytes[shift] += 1 + extra + (rest + 6) / 7;
	}
	z->count++;
}

uint64_t ep_crel_sizer_bytes(const struct ep_crel_sizer *z)
{
	/* Bit 3 is always in the mask: the shift is at most 3. */
	unsigned int shift = (unsigned int)__builtin_ctzll(z->offset_or | 8);

	return uleb_len(z->count * 8 + EP_CREL_HDR_ADDEND + shift) + z->bytes[shift];
}
