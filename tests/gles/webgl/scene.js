/*
 * scene.js: what webgl1.html and webgl2.html share -- the context, the
 * meshes, a checkered texture, column-major matrices and the camera, and
 * the report in the document's title that test-webgl.sh reads.
 */
'use strict';

const EYE = [0, 1.4, 4.6];
const LIGHT = [2.5, 4, 3];

const sceneMatrix = {
	multiply(a, b) {
		const m = new Float32Array(16);

		for (let c = 0; c < 4; c++)
			for (let r = 0; r < 4; r++) {
				let s = 0;

				for (let k = 0; k < 4; k++)
					s += a[k * 4 + r] * b[c * 4 + k];
				m[c * 4 + r] = s;
			}
		return m;
	},
	identity() {
		return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
	},
	translate(x, y, z) {
		const m = sceneMatrix.identity();

		m[12] = x;
		m[13] = y;
		m[14] = z;
		return m;
	},
	scale(x, y, z) {
		const m = sceneMatrix.identity();

		m[0] = x;
		m[5] = y;
		m[10] = z;
		return m;
	},
	/* about y by a, then about x by b */
	rotation(a, b) {
		const ca = Math.cos(a), sa = Math.sin(a), cb = Math.cos(b), sb = Math.sin(b);
		const ry = new Float32Array([ca, 0, -sa, 0, 0, 1, 0, 0, sa, 0, ca, 0, 0, 0, 0, 1]);
		const rx = new Float32Array([1, 0, 0, 0, 0, cb, sb, 0, 0, -sb, cb, 0, 0, 0, 0, 1]);

		return sceneMatrix.multiply(rx, ry);
	},
	/* the translucent pane: the floor quad stood up in front of the cube */
	pane() {
		const stand = new Float32Array([0.3, 0, 0, 0, 0, 0, 0.3, 0, 0, -0.3, 0, 0, 0, 0, 0, 1]);

		return sceneMatrix.multiply(sceneMatrix.translate(0.6, 0.2, 1.3), stand);
	},
	perspective(fovy, aspect, near, far) {
		const f = 1 / Math.tan(fovy / 2), m = new Float32Array(16);

		m[0] = f / aspect;
		m[5] = f;
		m[10] = (far + near) / (near - far);
		m[11] = -1;
		m[14] = (2 * far * near) / (near - far);
		return m;
	},
	/* looking from EYE at the origin, y up */
	view() {
		const z = EYE.map((v) => v / Math.hypot(...EYE));
		const x = [z[2], 0, -z[0]].map((v) => v / Math.hypot(z[2], z[0]));
		const y = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]];
		const dot = (a) => a[0] * EYE[0] + a[1] * EYE[1] + a[2] * EYE[2];

		return new Float32Array([x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
					 -dot(x), -dot(y), -dot(z), 1]);
	},
};

function sceneShader(gl, type, source) {
	const s = gl.createShader(type);

	gl.shaderSource(s, source.trim());
	gl.compileShader(s);
	if (!gl.getShaderParameter(s, gl.COMPILE_STATUS))
		throw new Error('shader: ' + gl.getShaderInfoLog(s));
	return s;
}

function scenePrograms(gl, vs, fs) {
	const p = gl.createProgram();

	gl.attachShader(p, sceneShader(gl, gl.VERTEX_SHADER, vs));
	gl.attachShader(p, sceneShader(gl, gl.FRAGMENT_SHADER, fs));
	gl.bindAttribLocation(p, 0, 'pos');
	gl.bindAttribLocation(p, 1, 'normal');
	gl.bindAttribLocation(p, 2, 'uv');
	gl.linkProgram(p);
	if (!gl.getProgramParameter(p, gl.LINK_STATUS))
		throw new Error('link: ' + gl.getProgramInfoLog(p));
	return p;
}

/* interleaved pos, normal, uv; 16-bit indices */
function sceneMesh(gl, vertices, indices) {
	const vb = gl.createBuffer(), ib = gl.createBuffer();

	gl.bindBuffer(gl.ARRAY_BUFFER, vb);
	gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(vertices), gl.STATIC_DRAW);
	gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
	gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint16Array(indices), gl.STATIC_DRAW);
	return { vb, ib, count: indices.length };
}

function sceneBind(gl, mesh) {
	gl.bindBuffer(gl.ARRAY_BUFFER, mesh.vb);
	gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mesh.ib);
	for (let i = 0; i < 3; i++)
		gl.enableVertexAttribArray(i);
	gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 32, 0);
	gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 32, 12);
	gl.vertexAttribPointer(2, 2, gl.FLOAT, false, 32, 24);
}

function sceneCube(gl) {
	const v = [], idx = [];
	const faces = [
		[[1, 0, 0], [0, 0, -1], [0, 1, 0]], [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
		[[0, 1, 0], [1, 0, 0], [0, 0, -1]], [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
		[[0, 0, 1], [1, 0, 0], [0, 1, 0]], [[0, 0, -1], [-1, 0, 0], [0, 1, 0]],
	];

	faces.forEach(([n, u, w], f) => {
		for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
			for (let k = 0; k < 3; k++)
				v.push(n[k] + a * u[k] + b * w[k]);
			v.push(...n, (a + 1) / 2, (b + 1) / 2);
		}
		idx.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
	});
	return sceneMesh(gl, v.map((x, i) => (i % 8 < 3 ? x * 0.8 : x)), idx);
}

function sceneFloor(gl) {
	const v = [];

	for (const [a, b] of [[-1, -1], [1, -1], [1, 1], [-1, 1]])
		v.push(a * 3, 0, b * 3, 0, 1, 0, (a + 1) * 3, (b + 1) * 3);
	return sceneMesh(gl, v, [0, 2, 1, 0, 3, 2]);
}

/* a checkerboard of SIZE texels, 8 squares a side, mipmapped, repeated */
function sceneChecker(gl, size) {
	const px = new Uint8Array(size * size * 4), t = gl.createTexture();

	for (let y = 0; y < size; y++)
		for (let x = 0; x < size; x++) {
			const on = ((x >> 3) ^ (y >> 3)) & 1, o = (y * size + x) * 4;

			px.set(on ? [235, 200, 90, 255] : [60, 110, 200, 255], o);
		}
	gl.bindTexture(gl.TEXTURE_2D, t);
	gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, size, size, 0, gl.RGBA, gl.UNSIGNED_BYTE, px);
	gl.generateMipmap(gl.TEXTURE_2D);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.REPEAT);
	gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.REPEAT);
	return t;
}

function sceneCamera(gl) {
	const proj = sceneMatrix.perspective(0.9, gl.drawingBufferWidth / gl.drawingBufferHeight,
					     0.5, 30);

	return sceneMatrix.multiply(proj, sceneMatrix.view());
}

/* one mesh under MODEL with TINT, the lighting uniforms set */
function sceneDraw(gl, prog, mesh, model, tint) {
	const u = (name) => gl.getUniformLocation(prog, name);

	gl.uniformMatrix4fv(u('mvp'), false, sceneMatrix.multiply(sceneCamera(gl), model));
	gl.uniformMatrix4fv(u('model'), false, model);
	gl.uniform3fv(u('light'), LIGHT);
	gl.uniform3fv(u('eye'), EYE);
	gl.uniform4fv(u('tint'), tint);
	gl.uniform1i(u('tex'), 0);
	sceneBind(gl, mesh);
	gl.drawElements(gl.TRIANGLES, mesh.count, gl.UNSIGNED_SHORT, 0);
}

/*
 * Draws with DRAW on a KIND ('webgl' or 'webgl2') context of ATTRS, then
 * reports: "ok RENDERER" when the draw raised no GL error and the centre
 * pixel is no longer the clear colour, "fail WHY" otherwise.
 */
function runScene(kind, attrs, draw) {
	const canvas = document.getElementById('c');
	const report = (text) => { document.title = text; };
	let gl;

	try {
		gl = canvas.getContext(kind, Object.assign({ preserveDrawingBuffer: true }, attrs));
		if (!gl) {
			report('fail no ' + kind + ' context');
			return;
		}
		draw(gl);
		const err = gl.getError();
		const px = new Uint8Array(4);

		gl.readPixels(canvas.width / 2, canvas.height / 2, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
		if (err || gl.getError()) {
			report('fail GL error 0x' + err.toString(16));
			return;
		}
		if (px[0] === 26 && px[1] === 31 && px[2] === 46) {
			report('fail nothing drawn at the centre');
			return;
		}
		const info = gl.getExtension('WEBGL_debug_renderer_info');

		report('ok ' + (info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : 'unknown renderer'));
	} catch (e) {
		report('fail ' + e.message);
	}
}
