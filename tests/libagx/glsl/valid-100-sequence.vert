// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// The sequence operator where 1.00 wants a constant expression (3.00 does
// not allow it there): array sizes, const and plain globals' initializers,
// a local const, a macro that expands to a sequence.  Rule 22.
#define PAIR(a, b) (a, b)

attribute vec4 position;
uniform vec4 weights[PAIR(1, 3)];
const float scale = 2.0 * (0.5,
                           0.25);
float bias = (scale, vec2(1.0, 0.5)).y;

void main()
{
	const vec4 offset = PAIR(vec4(0.0), vec4(scale, 0.5, 0.0, 1.0));
	vec4 sum = vec4(0.0);
	float w[(2, 3)];

	for (int i = 0; i < 3; i++) {
		w[i] = float(i);
		sum += weights[i] * w[i];
	}
	gl_Position = position * scale + sum + offset + bias;
}
