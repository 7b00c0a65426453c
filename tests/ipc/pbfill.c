/*
 * pbfill.c: fills any generated protobuf-c message through its descriptor,
 * so that round-trip tests and fuzz seeds cover every message type without
 * naming them.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "pbfill.h"

#define MAX_DEPTH 3
#define REPEAT	  2

static size_t scalar_size(ProtobufCType type)
{
	switch (type) {
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return 8;
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(void *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	default:
		return 4;
	}
}

static ProtobufCMessage *fill(const ProtobufCMessageDescriptor *desc, unsigned seed, int depth);

/* Writes one value of field f, number k of the field, at dst. */
static void fill_value(const ProtobufCFieldDescriptor *f, void *dst, unsigned seed, int depth)
{
	uint64_t v = seed * 7919u + f->id * 31u + 1;

	switch (f->type) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32: {
		int32_t x = -(int32_t)(v & 0xffff);
		memcpy(dst, &x, 4);
		break;
	}
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32: {
		uint32_t x = (uint32_t)v;
		memcpy(dst, &x, 4);
		break;
	}
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64: {
		int64_t x = -(int64_t)(v << 20);
		memcpy(dst, &x, 8);
		break;
	}
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64: {
		uint64_t x = v << 33 | v;
		memcpy(dst, &x, 8);
		break;
	}
	case PROTOBUF_C_TYPE_FLOAT: {
		float x = (float)v + 0.5f;
		memcpy(dst, &x, 4);
		break;
	}
	case PROTOBUF_C_TYPE_DOUBLE: {
		double x = (double)v + 0.25;
		memcpy(dst, &x, 8);
		break;
	}
	case PROTOBUF_C_TYPE_BOOL: {
		protobuf_c_boolean x = 1;
		memcpy(dst, &x, sizeof(x));
		break;
	}
	case PROTOBUF_C_TYPE_ENUM: {
		const ProtobufCEnumDescriptor *e = f->descriptor;
		int x = e->values[e->n_values - 1].value;
		memcpy(dst, &x, 4);
		break;
	}
	case PROTOBUF_C_TYPE_STRING: {
		char *s = malloc(32);
		snprintf(s, 32, "%s-%u", f->name, seed);
		memcpy(dst, &s, sizeof(s));
		break;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		ProtobufCBinaryData b = { .len = 5 + seed % 11, .data = malloc(16) };
		for (size_t i = 0; i < b.len; i++)
			b.data[i] = (uint8_t)(v + i * 13);
		memcpy(dst, &b, sizeof(b));
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		ProtobufCMessage *m = fill(f->descriptor, seed + 1, depth + 1);
		memcpy(dst, &m, sizeof(m));
		break;
	}
	}
}

static ProtobufCMessage *fill(const ProtobufCMessageDescriptor *desc, unsigned seed, int depth)
{
	ProtobufCMessage *msg = calloc(1, desc->sizeof_message);
	char *base = (char *)msg;

	desc->message_init(msg);
	if (depth >= MAX_DEPTH)
		return msg;
	for (unsigned i = 0; i < desc->n_fields; i++) {
		const ProtobufCFieldDescriptor *f = &desc->fields[i];

		if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
			uint32_t *which = (uint32_t *)(base + f->quantifier_offset);

			if (*which)
				continue; /* one member per oneof */
			*which = f->id;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t sz = scalar_size(f->type);
			char *arr = calloc(REPEAT, sz);

			for (unsigned k = 0; k < REPEAT; k++)
				fill_value(f, arr + k * sz, seed + k, depth);
			*(size_t *)(base + f->quantifier_offset) = REPEAT;
			memcpy(base + f->offset, &arr, sizeof(arr));
			continue;
		}
		if (f->label == PROTOBUF_C_LABEL_OPTIONAL && f->quantifier_offset &&
		    !(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
		    f->type != PROTOBUF_C_TYPE_MESSAGE && f->type != PROTOBUF_C_TYPE_STRING)
			*(protobuf_c_boolean *)(base + f->quantifier_offset) = 1;
		fill_value(f, base + f->offset, seed, depth);
	}
	return msg;
}

ProtobufCMessage *pbfill_new(const ProtobufCMessageDescriptor *desc, unsigned seed)
{
	return fill(desc, seed, 0);
}
