#version 310 es
// The demo's workload (./agx demo): the Mandelbrot set, one invocation per
// pixel, coloured by how fast each point escapes.  Compiled by libagx's
// compiler at run time and run on the GPU, a band of rows per job; the
// image is read back and written as a PNG.

layout(local_size_x = 64) in;

layout(std430, binding = 0) buffer Image {
	uint pixels[];
};

uniform uvec2 size;     // pixels across, down
uniform uint first;     // the first pixel of this dispatch's band
uniform vec4 view;      // the top left corner (x, y), the step of a pixel (x, y)
uniform uint max_iterations;

vec3 palette(float t)
{
	// a cosine palette: blue, gold, white at the edge of the set
	return vec3(0.5) + vec3(0.5) * cos(6.28318 * (vec3(1.0, 1.0, 1.0) * t + vec3(0.0, 0.10, 0.20)));
}

uint pack(vec3 c)
{
	uvec3 u = uvec3(clamp(c, 0.0, 1.0) * 255.0 + 0.5);
	return u.r | (u.g << 8) | (u.b << 16) | (255u << 24);
}

void main()
{
	uint i = first + gl_GlobalInvocationID.x;
	if (i >= size.x * size.y)
		return;

	vec2 c = view.xy + vec2(float(i % size.x), float(i / size.x)) * view.zw;
	vec2 z = vec2(0.0);
	uint n = 0u;
	for (; n < max_iterations; n++) {
		if (dot(z, z) > 256.0)
			break;
		z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
	}

	if (n == max_iterations) {
		pixels[i] = pack(vec3(0.0));
	} else {
		// smooth colouring: the fraction of an iteration left at escape
		float smooth_n = float(n) + 1.0 - log2(log2(dot(z, z)) * 0.5);
		pixels[i] = pack(palette(sqrt(smooth_n / float(max_iterations))));
	}
}
