#version 310 es
// The clear kernel (libagx/clear/clear.c): one invocation per 32-bit word of
// an image's level and layer.  Each word's bytes belong to one texel (texels
// of 4 bytes and more) or to 2 or 4 texels (1- and 2-byte texels): the
// invocation finds where each of them is in the image (linear: rows;
// twiddled: tiles in rows, Morton order inside a tile), and writes the
// value to those inside the rectangle, under the write mask.  A word has
// one writer, so narrow texels need no atomics.

layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Image {
	uint words[];
};

uniform uvec4 rect;  // x0, y0, x1, y1: the texels written, x0 <= x < x1, y0 <= y < y1
uniform uvec4 value; // the texel's words; 1- and 2-byte texels repeated to fill one
uniform uvec4 mask;  // the bits of each word written, the same way
uniform uvec4 shape; // log2 bytes a texel, twiddled, texels a row (linear) or tiles a row
                     // (twiddled), log2 of the tile's width | log2 of its height << 8
uniform uvec4 walk;  // invocation to word: base + y * pitch_y + z * pitch_z + x; x < span
                     // (base, pitch_y, pitch_z, span)

uint pick(uvec4 v, uint i)
{
	return i == 0u ? v.x : i == 1u ? v.y : i == 2u ? v.z : v.w;
}

// Element e's coordinates in the level.
uvec2 where(uint e)
{
	if (shape.y == 0u)
		return uvec2(e % shape.z, e / shape.z);

	uint twl = shape.w & 0xffu, thl = shape.w >> 8;
	uint tile = e >> (twl + thl), m = e & ((1u << (twl + thl)) - 1u);
	uvec2 p = uvec2(0u);
	uint bit = 0u;

	// x takes the even bits and y the odd ones while both last; the rest go on top
	for (uint i = 0u; i < max(twl, thl); i++) {
		if (i < twl) {
			p.x |= ((m >> bit) & 1u) << i;
			bit++;
		}
		if (i < thl) {
			p.y |= ((m >> bit) & 1u) << i;
			bit++;
		}
	}
	return uvec2((tile % shape.z) << twl, (tile / shape.z) << thl) + p;
}

void main()
{
	uvec3 g = gl_GlobalInvocationID;

	if (g.x >= walk.w)
		return;

	uint word = walk.x + g.y * walk.y + g.z * walk.z + g.x;
	uint bl = shape.x;
	uint texels = bl >= 2u ? 1u : 4u >> bl;
	uint texel_bits = bl >= 2u ? 0xffffffffu : (1u << (8u << bl)) - 1u;
	uint inside = 0u;

	for (uint j = 0u; j < texels; j++) {
		uvec2 p = where((word * 4u + (j << bl)) >> bl);

		if (all(greaterThanEqual(p, rect.xy)) && all(lessThan(p, rect.zw)))
			inside |= texel_bits << ((j << bl) * 8u);
	}
	if (inside == 0u)
		return;

	// a texel of 8 or 16 bytes: this word's place in it
	uint i = bl > 2u ? word & ((1u << (bl - 2u)) - 1u) : 0u;
	uint m = pick(mask, i) & inside;
	uint v = pick(value, i);

	if (m != 0xffffffffu)
		v = (words[word] & ~m) | (v & m);
	words[word] = v;
}
