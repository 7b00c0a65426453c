/*
 * egl_config.c: the frame buffer configurations -- five colour formats by
 * five depth and stencil combinations, single-sampled and 4x, for
 * OpenGL ES 2 and 3 contexts and pbuffer surfaces, and window surfaces
 * where the display's platform gives them (egl_platform_*.c) -- and
 * eglGetConfigs, eglChooseConfig (EGL 1.5 section 3.4.1: its matching and
 * sorting rules) and eglGetConfigAttrib.
 */
#include <stdlib.h>

#include "egl_agx.h"

/*
 * Every display's pbuffer configs: RGBA8888 and RGB565, each with no depth
 * or stencil (EGL_CONFIG_ID 1, 3), 24-bit depth and 8-bit stencil (2, 4),
 * 16-bit depth (5, 7) and 24-bit depth alone (6, 8); then RGB888,
 * RGB10_A2 and RGBA16F (EGL_EXT_pixel_format_float) with the same four and
 * a 32-bit depth (9 to 23), and RGBA8888 and RGB565 with a 32-bit depth
 * (24, 25) -- the colour formats and depth and stencil combinations Mesa's
 * drivers offer, since applications ask for exact ones (glmark2 scores a
 * stencil it did not ask for as unusable).  A 24-bit depth is stored as
 * DEPTH_COMPONENT24 and DEPTH24_STENCIL8 are (formats.c): a Z32F depth
 * buffer, and an S8 stencil buffer, which the ZLS renders to; a 32-bit
 * one is a DEPTH_COMPONENT32F buffer.  Then the same 25 again with 4
 * samples (31 to 55; 26 to 30 are the X11 platform's): every one of them
 * fits a multisampled tile (RGBA16F, the widest, is 32 bytes a pixel at
 * 4x: agx_tilebuffer_layout), and 4x is the most the render path takes
 * (GLES_MAX_SAMPLES).
 */
#define CONFIG_S(id_, r, g, b, a, depth_, stencil_, cf, df, sf, samples_)                          \
	{                                                                                          \
		.id = (id_), .red = (r), .green = (g), .blue = (b), .alpha = (a),                  \
		.depth = (depth_), .stencil = (stencil_), .color_format = GLES_FORMAT_##cf,        \
		.depth_format = GLES_FORMAT_##df, .stencil_format = GLES_FORMAT_##sf,              \
		.surface_type = EGL_PBUFFER_BIT, .visual_type = EGL_NONE, .samples = (samples_)    \
	}
#define CONFIGS_OF_S(id, r, g, b, a, cf, s)                                                        \
	CONFIG_S(id, r, g, b, a, 0, 0, cf, NONE, NONE, s),                                         \
	    CONFIG_S(id + 1, r, g, b, a, 24, 8, cf, Z32_FLOAT, S8_UINT, s),                        \
	    CONFIG_S(id + 2, r, g, b, a, 16, 0, cf, Z16_UNORM, NONE, s),                           \
	    CONFIG_S(id + 3, r, g, b, a, 24, 0, cf, Z24_FLOAT, NONE, s),                           \
	    CONFIG_S(id + 4, r, g, b, a, 32, 0, cf, D32_FLOAT, NONE, s)
/* The 25 of one sample count, their ids from base up (1 single-sampled, 31 4x). */
#define CONFIG_SET(base, s)                                                                        \
	CONFIG_S(base, 8, 8, 8, 8, 0, 0, RGBA8_UNORM, NONE, NONE, s),                              \
	    CONFIG_S(base + 1, 8, 8, 8, 8, 24, 8, RGBA8_UNORM, Z32_FLOAT, S8_UINT, s),             \
	    CONFIG_S(base + 2, 5, 6, 5, 0, 0, 0, B5G6R5_UNORM, NONE, NONE, s),                     \
	    CONFIG_S(base + 3, 5, 6, 5, 0, 24, 8, B5G6R5_UNORM, Z32_FLOAT, S8_UINT, s),            \
	    CONFIG_S(base + 4, 8, 8, 8, 8, 16, 0, RGBA8_UNORM, Z16_UNORM, NONE, s),                \
	    CONFIG_S(base + 5, 8, 8, 8, 8, 24, 0, RGBA8_UNORM, Z24_FLOAT, NONE, s),                \
	    CONFIG_S(base + 6, 5, 6, 5, 0, 16, 0, B5G6R5_UNORM, Z16_UNORM, NONE, s),               \
	    CONFIG_S(base + 7, 5, 6, 5, 0, 24, 0, B5G6R5_UNORM, Z24_FLOAT, NONE, s),               \
	    CONFIGS_OF_S(base + 8, 8, 8, 8, 0, RGBX8_UNORM, s),                                    \
	    CONFIGS_OF_S(base + 13, 10, 10, 10, 2, RGB10A2_UNORM, s),                              \
	    CONFIGS_OF_S(base + 18, 16, 16, 16, 16, RGBA16_FLOAT, s),                              \
	    CONFIG_S(base + 23, 8, 8, 8, 8, 32, 0, RGBA8_UNORM, D32_FLOAT, NONE, s),               \
	    CONFIG_S(base + 24, 5, 6, 5, 0, 32, 0, B5G6R5_UNORM, D32_FLOAT, NONE, s)
static const struct gles_config base_configs[] = {
	CONFIG_SET(1, 0),
	CONFIG_SET(GLES_FIRST_MULTISAMPLE_CONFIG, 4),
};

#define NUM_BASE_CONFIGS (sizeof(base_configs) / sizeof(base_configs[0]))

const struct gles_config *gles_egl_base_configs(unsigned *n)
{
	*n = NUM_BASE_CONFIGS;
	return base_configs;
}

/* The base configs, and those the platform gives windows (egl_platform_*.c). */
void gles_egl_configs_init(struct gles_display *dpy)
{
	for (unsigned i = 0; i < NUM_BASE_CONFIGS; i++)
		dpy->configs[i] = base_configs[i];
	dpy->num_configs = NUM_BASE_CONFIGS;
	if (dpy->ops->init_configs)
		dpy->ops->init_configs(dpy);
}

const struct gles_config *gles_egl_config(const struct gles_display *dpy, EGLConfig handle)
{
	for (unsigned i = 0; i < dpy->num_configs; i++)
		if (handle == (EGLConfig)&dpy->configs[i])
			return &dpy->configs[i];
	gles_egl_error(EGL_BAD_CONFIG);
	return NULL;
}

bool gles_configs_compatible(const struct gles_config *a, const struct gles_config *b)
{
	return a->color_format == b->color_format && a->red == b->red && a->green == b->green &&
	       a->blue == b->blue && a->alpha == b->alpha && a->depth == b->depth &&
	       a->stencil == b->stencil && a->samples == b->samples;
}

/* A config's value of attribute (EGL 1.5 table 3.1); false if it is no config attribute. */
static bool config_value(const struct gles_config *c, EGLint attribute, EGLint *value)
{
	switch (attribute) {
	case EGL_BUFFER_SIZE:
		*value = c->red + c->green + c->blue + c->alpha;
		break;
	case EGL_RED_SIZE:
		*value = c->red;
		break;
	case EGL_GREEN_SIZE:
		*value = c->green;
		break;
	case EGL_BLUE_SIZE:
		*value = c->blue;
		break;
	case EGL_ALPHA_SIZE:
		*value = c->alpha;
		break;
	case EGL_DEPTH_SIZE:
		*value = c->depth;
		break;
	case EGL_STENCIL_SIZE:
		*value = c->stencil;
		break;
	case EGL_CONFIG_ID:
		*value = c->id;
		break;
	case EGL_COLOR_BUFFER_TYPE:
		*value = EGL_RGB_BUFFER;
		break;
	case EGL_COLOR_COMPONENT_TYPE_EXT:
		*value = c->color_format == GLES_FORMAT_RGBA16_FLOAT
			     ? EGL_COLOR_COMPONENT_TYPE_FLOAT_EXT
			     : EGL_COLOR_COMPONENT_TYPE_FIXED_EXT;
		break;
	case EGL_RENDERABLE_TYPE:
		*value = GLES_CONFIG_RENDERABLE_TYPE;
		break;
	case EGL_CONFORMANT:
		/* no client API has passed its conformance tests on this driver yet */
		*value = 0;
		break;
	case EGL_SURFACE_TYPE:
		/* windows on an X11 screen only; pixmaps nowhere */
		*value = c->surface_type;
		break;
	case EGL_NATIVE_VISUAL_ID:
		*value = c->visual_id;
		break;
	case EGL_NATIVE_VISUAL_TYPE:
		*value = c->visual_type;
		break;
	case EGL_CONFIG_CAVEAT:
	case EGL_TRANSPARENT_TYPE:
		*value = EGL_NONE;
		break;
	case EGL_BIND_TO_TEXTURE_RGB:
	case EGL_BIND_TO_TEXTURE_RGBA:
	case EGL_NATIVE_RENDERABLE:
		*value = EGL_FALSE;
		break;
	case EGL_MAX_PBUFFER_WIDTH:
	case EGL_MAX_PBUFFER_HEIGHT:
		*value = GLES_MAX_PBUFFER_SIZE;
		break;
	case EGL_MAX_PBUFFER_PIXELS:
		*value = GLES_MAX_PBUFFER_SIZE * GLES_MAX_PBUFFER_SIZE;
		break;
	case EGL_MIN_SWAP_INTERVAL:
		*value = 0;
		break;
	case EGL_MAX_SWAP_INTERVAL:
		*value = 1;
		break;
	case EGL_SAMPLE_BUFFERS:
		*value = c->samples ? 1 : 0;
		break;
	case EGL_SAMPLES:
		*value = c->samples;
		break;
	case EGL_LUMINANCE_SIZE:
	case EGL_ALPHA_MASK_SIZE:
	case EGL_LEVEL:
	case EGL_TRANSPARENT_RED_VALUE:
	case EGL_TRANSPARENT_GREEN_VALUE:
	case EGL_TRANSPARENT_BLUE_VALUE:
		*value = 0;
		break;
	default:
		return false;
	}
	return true;
}

/* ---- eglChooseConfig --------------------------------------------------------------------- */

enum criterion { EXACT, AT_LEAST, MASK, SPECIAL, IGNORED };

/* EGL 1.5 table 3.4: each attribute's default and how it selects configs. */
static const struct {
	EGLint attribute, fallback;
	enum criterion criterion;
} rules[] = {
	{ EGL_BUFFER_SIZE, 0, AT_LEAST },
	{ EGL_RED_SIZE, 0, AT_LEAST },
	{ EGL_GREEN_SIZE, 0, AT_LEAST },
	{ EGL_BLUE_SIZE, 0, AT_LEAST },
	{ EGL_LUMINANCE_SIZE, 0, AT_LEAST },
	{ EGL_ALPHA_SIZE, 0, AT_LEAST },
	{ EGL_ALPHA_MASK_SIZE, 0, AT_LEAST },
	{ EGL_BIND_TO_TEXTURE_RGB, EGL_DONT_CARE, EXACT },
	{ EGL_BIND_TO_TEXTURE_RGBA, EGL_DONT_CARE, EXACT },
	{ EGL_COLOR_BUFFER_TYPE, EGL_RGB_BUFFER, EXACT },
	/* EGL_EXT_pixel_format_float: fixed-point configs unless float ones are asked for */
	{ EGL_COLOR_COMPONENT_TYPE_EXT, EGL_COLOR_COMPONENT_TYPE_FIXED_EXT, EXACT },
	{ EGL_CONFIG_CAVEAT, EGL_DONT_CARE, EXACT },
	{ EGL_CONFIG_ID, EGL_DONT_CARE, EXACT },
	{ EGL_CONFORMANT, 0, MASK },
	{ EGL_DEPTH_SIZE, 0, AT_LEAST },
	{ EGL_LEVEL, 0, EXACT },
	{ EGL_MATCH_NATIVE_PIXMAP, EGL_NONE, SPECIAL },
	{ EGL_MAX_SWAP_INTERVAL, EGL_DONT_CARE, EXACT },
	{ EGL_MIN_SWAP_INTERVAL, EGL_DONT_CARE, EXACT },
	{ EGL_NATIVE_RENDERABLE, EGL_DONT_CARE, EXACT },
	{ EGL_NATIVE_VISUAL_TYPE, EGL_DONT_CARE, EXACT },
	{ EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, MASK },
	{ EGL_SAMPLE_BUFFERS, 0, AT_LEAST },
	{ EGL_SAMPLES, 0, AT_LEAST },
	{ EGL_STENCIL_SIZE, 0, AT_LEAST },
	{ EGL_SURFACE_TYPE, EGL_WINDOW_BIT, MASK },
	{ EGL_TRANSPARENT_TYPE, EGL_NONE, EXACT },
	{ EGL_TRANSPARENT_RED_VALUE, EGL_DONT_CARE, EXACT },
	{ EGL_TRANSPARENT_GREEN_VALUE, EGL_DONT_CARE, EXACT },
	{ EGL_TRANSPARENT_BLUE_VALUE, EGL_DONT_CARE, EXACT },
	/* section 3.4.1.2: eglChooseConfig ignores these */
	{ EGL_MAX_PBUFFER_WIDTH, 0, IGNORED },
	{ EGL_MAX_PBUFFER_HEIGHT, 0, IGNORED },
	{ EGL_MAX_PBUFFER_PIXELS, 0, IGNORED },
	{ EGL_NATIVE_VISUAL_ID, 0, IGNORED },
};

#define NUM_RULES (sizeof(rules) / sizeof(rules[0]))

static int rule_index(EGLint attribute)
{
	for (unsigned i = 0; i < NUM_RULES; i++)
		if (rules[i].attribute == attribute)
			return (int)i;
	return -1;
}

/* Whether value is one attribute may be asked for with (EGL_BAD_ATTRIBUTE if not). */
static bool valid_request(EGLint attribute, EGLint value)
{
	/* section 3.4.1.2: EGL_DONT_CARE is valid for all but these two */
	if (value == EGL_DONT_CARE)
		return attribute != EGL_LEVEL && attribute != EGL_MATCH_NATIVE_PIXMAP;
	switch (attribute) {
	case EGL_BIND_TO_TEXTURE_RGB:
	case EGL_BIND_TO_TEXTURE_RGBA:
	case EGL_NATIVE_RENDERABLE:
		return value == EGL_TRUE || value == EGL_FALSE;
	case EGL_COLOR_BUFFER_TYPE:
		return value == EGL_RGB_BUFFER || value == EGL_LUMINANCE_BUFFER;
	case EGL_COLOR_COMPONENT_TYPE_EXT:
		return value == EGL_COLOR_COMPONENT_TYPE_FIXED_EXT ||
		       value == EGL_COLOR_COMPONENT_TYPE_FLOAT_EXT;
	case EGL_CONFIG_CAVEAT:
		return value == EGL_NONE || value == EGL_SLOW_CONFIG ||
		       value == EGL_NON_CONFORMANT_CONFIG;
	case EGL_TRANSPARENT_TYPE:
		return value == EGL_NONE || value == EGL_TRANSPARENT_RGB;
	case EGL_MATCH_NATIVE_PIXMAP:
		/* a native pixmap handle or EGL_NONE: no platform has pixmaps */
		return value == EGL_NONE;
	case EGL_CONFORMANT:
	case EGL_RENDERABLE_TYPE:
	case EGL_SURFACE_TYPE:
	case EGL_NATIVE_VISUAL_TYPE:
	case EGL_CONFIG_ID:
	case EGL_LEVEL:
		return true;
	default:
		/* sizes, counts, intervals and transparent values are not negative */
		return value >= 0;
	}
}

static bool matches(const struct gles_config *c, const EGLint *want)
{
	EGLint have;

	/* section 3.4.1.2: with EGL_CONFIG_ID given, every other attribute is ignored */
	if (want[rule_index(EGL_CONFIG_ID)] != EGL_DONT_CARE)
		return c->id == want[rule_index(EGL_CONFIG_ID)];
	for (unsigned i = 0; i < NUM_RULES; i++) {
		EGLint attribute = rules[i].attribute, value = want[i];

		if (value == EGL_DONT_CARE || rules[i].criterion == IGNORED)
			continue;
		/* the transparent values count only when a transparent RGB config is asked for */
		if ((attribute == EGL_TRANSPARENT_RED_VALUE ||
		     attribute == EGL_TRANSPARENT_GREEN_VALUE ||
		     attribute == EGL_TRANSPARENT_BLUE_VALUE) &&
		    want[rule_index(EGL_TRANSPARENT_TYPE)] != EGL_TRANSPARENT_RGB)
			continue;
		/* EGL_NONE is the only native pixmap anyone may name, and it matches any config */
		if (rules[i].criterion == SPECIAL)
			continue;
		config_value(c, attribute, &have);
		switch (rules[i].criterion) {
		case EXACT:
			if (have != value)
				return false;
			break;
		case AT_LEAST:
			if (have < value)
				return false;
			break;
		case MASK:
			if ((have & value) != value)
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* The colour bits the sort counts: only of components asked for with a size above 0. */
static EGLint color_bits(const struct gles_config *c, const EGLint *want)
{
	static const EGLint components[] = { EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE,
					     EGL_ALPHA_SIZE };
	EGLint bits = 0, have;

	for (unsigned i = 0; i < 4; i++) {
		EGLint w = want[rule_index(components[i])];

		if (w == 0 || w == EGL_DONT_CARE)
			continue;
		config_value(c, components[i], &have);
		bits += have;
	}
	return bits;
}

/* qsort has no context argument: the request being sorted for, under the EGL lock. */
static const EGLint *sort_request;

/*
 * Section 3.4.1.2's order (caveat and colour buffer type are the same for
 * every config here), with EGL_EXT_pixel_format_float's fixed-point
 * before floating-point configs after the caveat.
 */
static int compare_configs(const void *pa, const void *pb)
{
	static const EGLint smaller_first[] = { EGL_BUFFER_SIZE,  EGL_SAMPLE_BUFFERS,
						EGL_SAMPLES,	  EGL_DEPTH_SIZE,
						EGL_STENCIL_SIZE, EGL_ALPHA_MASK_SIZE,
						EGL_CONFIG_ID };
	const struct gles_config *a = *(const struct gles_config *const *)pa;
	const struct gles_config *b = *(const struct gles_config *const *)pb;
	EGLint va, vb;

	config_value(a, EGL_COLOR_COMPONENT_TYPE_EXT, &va);
	config_value(b, EGL_COLOR_COMPONENT_TYPE_EXT, &vb);
	if (va != vb)
		return va == EGL_COLOR_COMPONENT_TYPE_FIXED_EXT ? -1 : 1;
	va = color_bits(a, sort_request);
	vb = color_bits(b, sort_request);
	if (va != vb)
		return va > vb ? -1 : 1;
	for (unsigned i = 0; i < sizeof(smaller_first) / sizeof(smaller_first[0]); i++) {
		config_value(a, smaller_first[i], &va);
		config_value(b, smaller_first[i], &vb);
		if (va != vb)
			return va < vb ? -1 : 1;
	}
	return 0;
}

EGLBoolean gles_egl_choose_config(EGLDisplay handle, const EGLint *attribs, EGLConfig *out,
				  EGLint size, EGLint *num)
{
	const struct gles_config *found[GLES_MAX_CONFIGS];
	struct gles_display *dpy;
	EGLint want[NUM_RULES];
	unsigned count = 0;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)))
		goto fail;
	if (!num) {
		gles_egl_error(EGL_BAD_PARAMETER);
		goto fail;
	}
	for (unsigned i = 0; i < NUM_RULES; i++)
		want[i] = rules[i].fallback;
	for (const EGLint *a = attribs; a && a[0] != EGL_NONE; a += 2) {
		int i = rule_index(a[0]);

		if (i < 0 || !valid_request(a[0], a[1])) {
			gles_egl_error(EGL_BAD_ATTRIBUTE);
			goto fail;
		}
		want[i] = a[1];
	}
	for (unsigned i = 0; i < dpy->num_configs; i++)
		if (matches(&dpy->configs[i], want))
			found[count++] = &dpy->configs[i];
	sort_request = want;
	qsort(found, count, sizeof(found[0]), compare_configs);
	sort_request = NULL;
	if (out) {
		unsigned n = size > 0 ? ((unsigned)size < count ? (unsigned)size : count) : 0;

		for (unsigned i = 0; i < n; i++)
			out[i] = (EGLConfig)found[i];
		count = n;
	}
	*num = (EGLint)count;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;

fail:
	gles_egl_unlock();
	return EGL_FALSE;
}

EGLBoolean gles_egl_get_configs(EGLDisplay handle, EGLConfig *out, EGLint size, EGLint *num)
{
	struct gles_display *dpy;
	unsigned count;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	if (!num) {
		gles_egl_unlock();
		return gles_egl_error(EGL_BAD_PARAMETER);
	}
	count = dpy->num_configs;
	if (out) {
		count = size > 0 ? ((unsigned)size < count ? (unsigned)size : count) : 0;
		for (unsigned i = 0; i < count; i++)
			out[i] = (EGLConfig)&dpy->configs[i];
	}
	*num = (EGLint)count;
	gles_egl_unlock();
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}

EGLBoolean gles_egl_get_config_attrib(EGLDisplay handle, EGLConfig config, EGLint attribute,
				      EGLint *value)
{
	struct gles_display *dpy;
	const struct gles_config *c;
	bool known;
	EGLint v;

	gles_egl_lock();
	if (!(dpy = gles_egl_display(handle, true)) || !(c = gles_egl_config(dpy, config))) {
		gles_egl_unlock();
		return EGL_FALSE;
	}
	known = config_value(c, attribute, &v);
	gles_egl_unlock();
	if (!known)
		return gles_egl_error(EGL_BAD_ATTRIBUTE);
	if (!value)
		return gles_egl_error(EGL_BAD_PARAMETER);
	*value = v;
	gles_egl_error(EGL_SUCCESS);
	return EGL_TRUE;
}
