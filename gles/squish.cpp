/*
 * squish.cpp: the one call into libsquish (Debian's libsquish-dev), whose
 * interface is C++: a 4x4 block compressed to BC1, BC2 or BC3 (compress.h).
 */
#include <squish.h>

#include "compress.h"

extern "C" void gles_squish_block(const uint8_t rgba[64], unsigned bc, uint8_t *out)
{
	int flags = bc == 1 ? squish::kDxt1 : bc == 2 ? squish::kDxt3 : squish::kDxt5;

	/* every texel is inside the block: the caller fills the ones past the image's edge */
	squish::CompressMasked(rgba, 0xffff, out, flags | squish::kColourClusterFit);
}
