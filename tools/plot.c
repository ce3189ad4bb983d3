/* kov-plot: draws the evaluation's charts (sim/eval) as PNG files with Cairo.
 *   kov-plot SPEC OUT.png
 * SPEC is text, one directive a line ('#' starts a comment):
 *   title TEXT | xlabel TEXT | ylabel TEXT
 *   kind bars|lines        grouped bars over categories, or lines over numeric x
 *   logx                   (lines) x on a logarithmic scale
 *   categories A|B|C       (bars) the groups, left to right
 *   series NAME|V|V|V      (bars) one value per category
 *   series NAME|X:Y|X:Y    (lines) points
 *                          either may end in :LO:HI, an error bar from LO to HI (the spread
 *                          of the runs whose median the value is)
 *   hline Y                a dashed reference line (e.g. 0 or 100)
 * Mistakes are reported with their line; nothing is drawn then. */
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SERIES 8
#define MAX_POINTS 128
#define PI 3.14159265358979323846
#define W 900
#define H 420

struct series {
	char name[64];
	int n;
	double x[MAX_POINTS], y[MAX_POINTS], lo[MAX_POINTS], hi[MAX_POINTS];
	bool err[MAX_POINTS];   /* lo..hi is an error bar */
};
struct chart {
	char title[160], xlabel[80], ylabel[80];
	int lines, logx, ncat, nser, nhline;
	char cat[MAX_POINTS][48];
	struct series s[MAX_SERIES];
	double hline[4];
};

static const double palette[MAX_SERIES][3] = {
	{ 0.20, 0.40, 0.70 }, { 0.85, 0.45, 0.15 }, { 0.25, 0.60, 0.30 }, { 0.70, 0.20, 0.25 },
	{ 0.50, 0.35, 0.65 }, { 0.55, 0.45, 0.35 }, { 0.85, 0.50, 0.70 }, { 0.45, 0.45, 0.45 },
};

static int fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "kov-plot: %s: line %d: %s\n", file, line, what);
	return 2;
}

/* Splits s at '|' into at most max fields (in place); returns how many. */
static int split(char *s, char **f, int max)
{
	int n = 0;
	while (n < max) {
		f[n++] = s;
		char *bar = strchr(s, '|');
		if (!bar)
			break;
		*bar = 0;
		s = bar + 1;
	}
	return n;
}

static int parse(const char *file, struct chart *c)
{
	FILE *in = fopen(file, "r");
	if (!in) {
		fprintf(stderr, "kov-plot: %s: %s\n", file, strerror(errno));
		return 2;
	}
	char buf[2048];
	for (int ln = 1; fgets(buf, sizeof buf, in); ln++) {
		buf[strcspn(buf, "\r\n")] = 0;
		char *key = buf + strspn(buf, " \t");
		if (!*key || *key == '#')
			continue;
		char *arg = key + strcspn(key, " \t");
		if (*arg)
			*arg++ = 0;
		char *f[MAX_POINTS + 1];
		if (!strcmp(key, "title"))
			snprintf(c->title, sizeof c->title, "%s", arg);
		else if (!strcmp(key, "xlabel"))
			snprintf(c->xlabel, sizeof c->xlabel, "%s", arg);
		else if (!strcmp(key, "ylabel"))
			snprintf(c->ylabel, sizeof c->ylabel, "%s", arg);
		else if (!strcmp(key, "kind") && (!strcmp(arg, "bars") || !strcmp(arg, "lines")))
			c->lines = arg[0] == 'l';
		else if (!strcmp(key, "logx"))
			c->logx = 1;
		else if (!strcmp(key, "hline") && c->nhline < 4)
			c->hline[c->nhline++] = atof(arg);
		else if (!strcmp(key, "categories")) {
			c->ncat = split(arg, f, MAX_POINTS);
			for (int i = 0; i < c->ncat; i++)
				snprintf(c->cat[i], sizeof c->cat[i], "%s", f[i]);
		} else if (!strcmp(key, "series")) {
			if (c->nser == MAX_SERIES)
				return fclose(in), fail(file, ln, "too many series");
			struct series *s = &c->s[c->nser++];
			int n = split(arg, f, MAX_POINTS + 1) - 1;
			snprintf(s->name, sizeof s->name, "%s", f[0]);
			for (int i = 0; i < n; i++) {
				char *end;
				if (c->lines) {
					s->x[i] = strtod(f[i + 1], &end);
					if (*end != ':')
						return fclose(in), fail(file, ln, "a point is X:Y");
					s->y[i] = strtod(end + 1, &end);
				} else {
					s->x[i] = i;
					s->y[i] = strtod(f[i + 1], &end);
				}
				s->err[i] = *end == ':';
				if (s->err[i]) {
					s->lo[i] = strtod(end + 1, &end);
					if (*end != ':')
						return fclose(in), fail(file, ln, "an error bar is :LO:HI");
					s->hi[i] = strtod(end + 1, &end);
					if (s->lo[i] > s->y[i] || s->hi[i] < s->y[i])
						return fclose(in), fail(file, ln, "an error bar must hold its value");
				}
				if (*end)
					return fclose(in), fail(file, ln, "not a number");
			}
			s->n = n;
		} else
			return fclose(in), fail(file, ln, "unknown directive");
	}
	fclose(in);
	if (!c->nser)
		return fail(file, 0, "no series");
	return 0;
}

/* A round step for about n ticks over [lo, hi]. */
static double step_for(double lo, double hi, int n)
{
	double raw = (hi - lo) / n, p = pow(10, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void text(cairo_t *cr, double x, double y, const char *s, double align, double size)
{
	cairo_text_extents_t e;
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.width * align, y);
	cairo_show_text(cr, s);
}

static void fmt(char *out, size_t n, double v)
{
	if (fabs(v) >= 1e6)
		snprintf(out, n, "%.3gM", v / 1e6);
	else if (fabs(v) >= 1e4)
		snprintf(out, n, "%.3gk", v / 1e3);
	else
		snprintf(out, n, "%g", v);
}

/* The plotting area and the data ranges it shows. */
struct frame { double L, R, T, B, xlo, xhi, ylo, yhi; };

static double frame_x(const struct frame *f, double x)
{
	return f->L + (x - f->xlo) / (f->xhi - f->xlo) * (f->R - f->L);
}

static double frame_y(const struct frame *f, double y)
{
	return f->B - (y - f->ylo) / (f->yhi - f->ylo) * (f->B - f->T);
}

/* Series i's error bars, darker than the series so that they show on its bars. */
static void draw_error_bars(const struct chart *c, cairo_t *cr, const struct frame *f, int i, double bw)
{
	const struct series *s = &c->s[i];
	cairo_set_source_rgb(cr, palette[i][0] * 0.45, palette[i][1] * 0.45, palette[i][2] * 0.45);
	cairo_set_line_width(cr, 1.5);
	for (int k = 0; k < s->n; k++) {
		if (!s->err[k])
			continue;
		double x = c->lines ? frame_x(f, c->logx ? log10(s->x[k]) : s->x[k])
				    : frame_x(f, k - 0.4 + (i + 0.5) * bw);
		double cap = c->lines ? 4 : fmin(5, (frame_x(f, bw) - frame_x(f, 0)) / 4);
		double lo = frame_y(f, s->lo[k]), hi = frame_y(f, s->hi[k]);
		cairo_move_to(cr, x, lo);
		cairo_line_to(cr, x, hi);
		cairo_move_to(cr, x - cap, lo);
		cairo_line_to(cr, x + cap, lo);
		cairo_move_to(cr, x - cap, hi);
		cairo_line_to(cr, x + cap, hi);
		cairo_stroke(cr);
	}
	cairo_set_line_width(cr, 1);
	cairo_set_source_rgb(cr, palette[i][0], palette[i][1], palette[i][2]);
}

static void draw(const struct chart *c, cairo_t *cr)
{
	const double L = 80, R = W - 190, T = 50, B = H - 60;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, (L + R) / 2, 25, c->title, 0.5, 15);
	double ylo = 0, yhi = 0, xlo = 1e300, xhi = -1e300;
	for (int i = 0; i < c->nser; i++)
		for (int k = 0; k < c->s[i].n; k++) {
			ylo = fmin(ylo, c->s[i].y[k]), yhi = fmax(yhi, c->s[i].y[k]);
			if (c->s[i].err[k])
				ylo = fmin(ylo, c->s[i].lo[k]), yhi = fmax(yhi, c->s[i].hi[k]);
			double x = c->logx ? log10(c->s[i].x[k]) : c->s[i].x[k];
			xlo = fmin(xlo, x), xhi = fmax(xhi, x);
		}
	for (int i = 0; i < c->nhline; i++)
		ylo = fmin(ylo, c->hline[i]), yhi = fmax(yhi, c->hline[i]);
	if (yhi <= ylo)
		yhi = ylo + 1;
	double ys = step_for(ylo, yhi, 6);
	ylo = floor(ylo / ys) * ys, yhi = ceil(yhi * 1.05 / ys) * ys;
	if (!c->lines)
		xlo = -0.5, xhi = c->ncat - 0.5;
	else if (xhi <= xlo)
		xhi = xlo + 1;
#define PX(x) (L + ((x) - xlo) / (xhi - xlo) * (R - L))
#define PY(y) (B - ((y) - ylo) / (yhi - ylo) * (B - T))
	char lab[48];
	cairo_set_line_width(cr, 1);
	for (double y = ylo; y <= yhi + ys / 2; y += ys) {
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, L, PY(y));
		cairo_line_to(cr, R, PY(y));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		fmt(lab, sizeof lab, fabs(y) < ys / 1e6 ? 0 : y);
		text(cr, L - 6, PY(y) + 4, lab, 1, 11);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	if (c->lines) {
		for (double x = ceil(xlo); x <= xhi + 1e-9; x += c->logx ? 1 : step_for(xlo, xhi, 8)) {
			fmt(lab, sizeof lab, c->logx ? pow(10, x) : x);
			text(cr, PX(x), B + 16, lab, 0.5, 11);
		}
	} else
		for (int i = 0; i < c->ncat; i++)
			text(cr, PX(i), B + 16, c->cat[i], 0.5, 11);
	text(cr, (L + R) / 2, H - 18, c->xlabel, 0.5, 12);
	cairo_save(cr);
	cairo_translate(cr, 20, (T + B) / 2);
	cairo_rotate(cr, -PI / 2);
	text(cr, 0, 0, c->ylabel, 0.5, 12);
	cairo_restore(cr);
	cairo_rectangle(cr, L, T, R - L, B - T);
	cairo_stroke(cr);
	for (int i = 0; i < c->nhline; i++) {
		double dash[] = { 5, 4 };
		cairo_set_dash(cr, dash, 2, 0);
		cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
		cairo_move_to(cr, L, PY(c->hline[i]));
		cairo_line_to(cr, R, PY(c->hline[i]));
		cairo_stroke(cr);
		cairo_set_dash(cr, 0, 0, 0);
	}
	double bw = 0.8 / c->nser;
	for (int i = 0; i < c->nser; i++) {
		const struct series *s = &c->s[i];
		cairo_set_source_rgb(cr, palette[i][0], palette[i][1], palette[i][2]);
		for (int k = 0; k < s->n; k++) {
			if (c->lines) {
				double x = PX(c->logx ? log10(s->x[k]) : s->x[k]), y = PY(s->y[k]);
				if (k)
					cairo_line_to(cr, x, y);
				else
					cairo_move_to(cr, x, y);
			} else {
				double x0 = PX(k - 0.4 + i * bw), x1 = PX(k - 0.4 + (i + 1) * bw);
				double y0 = PY(0), y1 = PY(s->y[k]);   /* ylo <= 0: bars stand on 0 */
				cairo_rectangle(cr, x0 + 1, fmin(y0, y1), x1 - x0 - 2, fabs(y1 - y0));
				cairo_fill(cr);
			}
		}
		if (c->lines) {
			cairo_set_line_width(cr, 2);
			cairo_stroke(cr);
			for (int k = 0; k < s->n; k++) {
				cairo_arc(cr, PX(c->logx ? log10(s->x[k]) : s->x[k]), PY(s->y[k]), 3, 0, 2 * PI);
				cairo_fill(cr);
			}
		}
		struct frame f = { L, R, T, B, xlo, xhi, ylo, yhi };
		draw_error_bars(c, cr, &f, i, bw);
		cairo_rectangle(cr, R + 15, T + 8 + i * 20, 12, 12);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, R + 33, T + 18 + i * 20, s->name, 0, 11);
	}
#undef PX
#undef PY
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: kov-plot SPEC OUT.png\n");
		return 2;
	}
	static struct chart c;
	int rc = parse(argv[1], &c);
	if (rc)
		return rc;
	cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
	cairo_t *cr = cairo_create(sf);
	draw(&c, cr);
	cairo_destroy(cr);
	if (cairo_surface_write_to_png(sf, argv[2]) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "kov-plot: cannot write %s\n", argv[2]);
		return 1;
	}
	cairo_surface_destroy(sf);
	return 0;
}
