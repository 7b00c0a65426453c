// [config]
// expect_result: pass
// glsl_version: 3.10
// [end config]
//
// A compute shader, as the driver's internal kernels are written.
#version 310 es
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
uniform uint scale;

void main()
{
	uint i = gl_GlobalInvocationID.x;
	values[i] = values[i] * scale + uint(gl_LocalInvocationIndex);
}
