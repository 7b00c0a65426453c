// [config]
// expect_result: pass
// glsl_version: 1.00
// [end config]
//
// Macros as shaders use them: constants, function-like helpers nested in
// their arguments, and #if on what is defined.  (GLSL ES has no ##.)
#define N 4
#define SQ(x) ((x) * (x))
#define MIX(a, b) (SQ(a) + (b))
#if defined(N) && N > 2 && !defined UNDEFINED
#define SCALE 0.5
#else
#define SCALE 2.0
#endif

attribute vec4 position;
uniform vec4 w0, w1;

void main()
{
	float s = SQ(SQ(SCALE)) * float(N);
	gl_Position = position * s + MIX(w0, w1);
}
