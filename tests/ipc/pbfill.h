/* pbfill: builds a protobuf-c message with every field set, from its descriptor. */
#ifndef TESTS_PBFILL_H
#define TESTS_PBFILL_H

#include <protobuf-c/protobuf-c.h>

/*
 * A message of desc with every field (and, in each oneof, one member) set
 * to a non-default value derived from seed.  Free it with
 * protobuf_c_message_free_unpacked(msg, NULL).
 */
ProtobufCMessage *pbfill_new(const ProtobufCMessageDescriptor *desc, unsigned seed);

#endif
