// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for rcu_poll, drawing side: each batch is a box on
 * the graph of the CPU that started it, from its start to its end (green,
 * red above the threshold), drawn by KernelShark's own
 * eventFieldIntervalPlot() as LatencyBoxes, so a double click marks its
 * start (A) and end (B); a batch still in flight at the end is a red box
 * to the end of the graph; each quiescent-state observation is a tick on
 * the graph of the CPU observed.
 *
 * Pairing is per stream (the data lives in the stream's context) and per
 * flavour: batch numbers count from 1 in each flavour, so rcu_poll 12 and
 * rcu_poll_preempt 12 are different batches.
 *
 * Tree RCU: each grace period is drawn the same way (a box on the graph
 * of the CPU its kthread started it on), and below it, on every CPU's
 * graph, a thinner bar from when that CPU noticed it ("cpustart") to its
 * quiescent state ("cpuqs"), same colours; its "cpuqs" is a blue tick.
 * For both: kicks (rcu_poll_kick, Tree's FQS finding a CPU idle) and FQS
 * scans are short orange ticks, stall warnings a tall dark red line.
 */
#include <cstdio>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "rcu_poll_ks.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"

using namespace KsPlot;

/*
 * KernelShark's main window, for marking entries on a double click.  It
 * is the application's one window, the same for every stream, which is
 * why it is not in the stream context.
 */
static void *gui;

extern "C" void rcu_poll_set_gui(void *g)
{
	gui = g;
}

/* The boxes of one stream. */
struct RcuPollPairs {
	/*
	 * Start and end entry of every batch that ended, each with the box
	 * key: flavour, the CPU it is drawn on, slow or not.  Sorted by time,
	 * as eventFieldIntervalPlot() wants.
	 */
	kshark_data_container *boxStarts, *boxEnds;
	/* Batches in flight at the end: their starts, and the box key. */
	std::vector<std::pair<kshark_entry *, int64_t>> open;
	std::unordered_multimap<int, kshark_entry *> qsByCPU;
	/* Kicks, FQS scans, stall warnings: entry and kind, by CPU. */
	std::unordered_multimap<int, std::pair<kshark_entry *, int>> marksByCPU;
	std::vector<int> flavours;
	size_t nbatches = 0, nslow = 0, nopen = 0;
	size_t nbars = 0, nbarsSlow = 0, nbarsOpen = 0;

	RcuPollPairs()
	{
		boxStarts = kshark_init_data_container();
		boxEnds = kshark_init_data_container();
	}

	~RcuPollPairs()
	{
		kshark_free_data_container(boxStarts);
		kshark_free_data_container(boxEnds);
	}
};

extern "C" void rcu_poll_free_pairs(void *pairs)
{
	delete static_cast<RcuPollPairs *>(pairs);
}

/* Lane 0: a batch or grace period; lane 1: Tree, one CPU's part of one. */
static int64_t boxKey(int flavour, int cpu, bool slow, int lane = 0)
{
	return ((int64_t)lane << 48) | ((int64_t)flavour << 32) | ((int64_t)cpu << 1) | slow;
}

static int boxLane(int64_t key)
{
	return (int)(key >> 48);
}

/*
 * Pair each start with the first end of the same key after it (lane 1:
 * of the same key on the same CPU), into p's boxes; unpaired starts are
 * in flight at the end.
 */
static void pairInto(plugin_rcu_poll_context *ctx, RcuPollPairs *p, kshark_data_container *starts,
		     kshark_data_container *ends, int lane)
{
	std::unordered_map<int64_t, kshark_entry *> open;
	kshark_data_field_int64 **s = starts->data, **e = ends->data;
	ssize_t i = 0, j = 0, ns = starts->size, ne = ends->size;
	/* Lane 1's keys hold the CPU already (cpustart, cpuqs, rcu_fqs's CPU). */
	auto mapKey = [](kshark_data_field_int64 *d) {
		return d->field;
	};

	kshark_data_container_sort(starts);
	kshark_data_container_sort(ends);
	while (i < ns || j < ne) {
		if (i < ns && (j == ne || s[i]->entry->ts <= e[j]->entry->ts)) {
			open[mapKey(s[i])] = s[i]->entry;
			i++;
			continue;
		}
		auto it = open.find(mapKey(e[j]));

		if (it != open.end()) {
			kshark_entry *start = it->second, *end = e[j]->entry;
			bool slow = end->ts - start->ts > ctx->slow_ns;
			int64_t key = boxKey(RCU_POLL_KEY_FLAVOUR(e[j]->field & ~(0xffLL << 56)),
					     start->cpu, slow, lane);

			kshark_data_container_append(p->boxStarts, start, key);
			kshark_data_container_append(p->boxEnds, end, key);
			(lane ? p->nbars : p->nbatches)++;
			(lane ? p->nbarsSlow : p->nslow) += slow;
			open.erase(it);
		}
		j++;
	}
	/*
	 * Lane 1: a CPU whose quiescent state the trace does not show (it was
	 * reported for it) has its bar end with the grace period.
	 */
	if (lane) {
		std::unordered_map<int64_t, kshark_entry *> gpEnd;

		for (ssize_t k = 0; k < ctx->ends->size; k++)
			gpEnd[ctx->ends->data[k]->field] = ctx->ends->data[k]->entry;
		for (auto it = open.begin(); it != open.end();) {
			auto end = gpEnd.find(it->first & ~(0xffLL << 56));

			if (end == gpEnd.end() || end->second->ts < it->second->ts) {
				++it;
				continue;
			}
			bool slow = end->second->ts - it->second->ts > ctx->slow_ns;
			int64_t key = boxKey(RCU_POLL_KEY_FLAVOUR(end->first), it->second->cpu, slow, 1);

			kshark_data_container_append(p->boxStarts, it->second, key);
			kshark_data_container_append(p->boxEnds, end->second, key);
			p->nbars++;
			p->nbarsSlow += slow;
			it = open.erase(it);
		}
	}
	/* Still in flight at the end of the trace: stuck, or cut off. */
	for (auto &o : open) {
		int f = RCU_POLL_KEY_FLAVOUR(o.first & ~(0xffLL << 56));

		p->open.push_back({o.second, boxKey(f, o.second->cpu, true, lane)});
		(lane ? p->nbarsOpen : p->nopen)++;
	}
}

static RcuPollPairs *pairBatches(plugin_rcu_poll_context *ctx)
{
	RcuPollPairs *p = new RcuPollPairs;

	kshark_data_container_sort(ctx->qs);
	kshark_data_container_sort(ctx->marks);
	for (int f = 0; f < ctx->nflavours; f++)
		p->flavours.push_back(f);
	pairInto(ctx, p, ctx->starts, ctx->ends, 0);
	if (ctx->tree)
		pairInto(ctx, p, ctx->cpustarts, ctx->cpuqs, 1);
	kshark_data_container_sort(p->boxStarts);
	kshark_data_container_sort(p->boxEnds);
	for (ssize_t k = 0; k < ctx->qs->size; k++)
		p->qsByCPU.emplace(ctx->qs->data[k]->field, ctx->qs->data[k]->entry);
	for (ssize_t k = 0; k < ctx->marks->size; k++) {
		int64_t f = ctx->marks->data[k]->field;

		p->marksByCPU.emplace((int)(f & 0xffffffff), std::make_pair(ctx->marks->data[k]->entry,
									   (int)(f >> 32)));
	}
	if (ctx->debug) {
		fprintf(stderr, "rcu_poll plugin: stream %d: %zu %s paired (%zu slow), %zu in flight, %zd quiescent states\n",
			ctx->stream_id, p->nbatches, ctx->tree ? "grace periods" : "batches", p->nslow,
			p->nopen, ctx->qs->size);
		if (ctx->tree)
			fprintf(stderr, "rcu_poll plugin: stream %d: %zu per-CPU bars cpustart to cpuqs (%zu slow), %zu in flight\n",
				ctx->stream_id, p->nbars, p->nbarsSlow, p->nbarsOpen);
		fprintf(stderr, "rcu_poll plugin: stream %d: %zu marks (kicks, FQS scans, stall warnings)\n",
			ctx->stream_id, p->marksByCPU.size());
	}
	return p;
}

/* A batch: a filled LatencyBox; double click marks its start and end. */
class RcuPollBox : public LatencyBox {
	void _doubleClick() const override
	{
		if (!gui || _data.size() < 2)
			return;
		markEntryA(gui, _data[0]->entry);
		if (_data[1])
			markEntryB(gui, _data[1]->entry);
	}
};

static const Color slowColor(220, 30, 30), okColor(40, 170, 60), qsColor(30, 60, 200);
static const Color kickColor(240, 140, 0), stallColor(120, 0, 0);

/* Lane 0 from 55% to 75% of the graph's height, lane 1 from 30% to 42%. */
static PlotObject *makeBox(Graph *graph, int b0, int b1, std::vector<kshark_data_field_int64 *> data,
			   Color col, int lane = 0)
{
	RcuPollBox *box = new RcuPollBox;
	int base = graph->bin(0)._base.y(), h = graph->height();
	int x0 = graph->bin(b0)._base.x(), x1 = graph->bin(b1)._base.x();
	double lo = lane ? 0.30 : 0.55, hi = lane ? 0.42 : 0.75;

	if (x1 < x0 + 2)
		x1 = x0 + 2;
	box->_data = data;
	box->setFill(true);
	box->setPoint(0, x0, base - h * hi);
	box->setPoint(1, x0, base - h * lo);
	box->setPoint(2, x1, base - h * lo);
	box->setPoint(3, x1, base - h * hi);
	box->_color = col;
	return box;
}

/* The shape eventFieldIntervalPlot() draws for each pair it finds. */
static PlotObject *intervalShape(std::vector<const Graph *> graph, std::vector<int> bins,
				 std::vector<kshark_data_field_int64 *> data, Color col, float size)
{
	return makeBox(const_cast<Graph *>(graph[0]), bins[0], bins[1], data, col,
		       data.size() && data[0] ? boxLane(data[0]->field) : 0);
}

/* The bin of time @ts, clamped to the visible range. */
static int binOf(kshark_trace_histo *histo, Graph *graph, int64_t ts)
{
	if (ts <= histo->min)
		return 0;
	if (ts >= histo->max)
		return graph->size() - 1;
	return (ts - histo->min) / histo->bin_size;
}

extern "C" void draw_rcu_poll(struct kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	plugin_rcu_poll_context *ctx = __get_context(sd);
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	kshark_trace_histo *histo = argv->_histo;
	Graph *graph = argv->_graph;
	size_t before = std::distance(argv->_shapes->begin(), argv->_shapes->end());
	RcuPollPairs *p;
	int base, h;

	if (!ctx || !(draw_action & KSHARK_CPU_DRAW) || graph->size() == 0)
		return;
	if (!ctx->pairs)
		ctx->pairs = pairBatches(ctx);
	p = static_cast<RcuPollPairs *>(ctx->pairs);
	base = graph->bin(0)._base.y();
	h = graph->height();

	/* Batches that ended: KernelShark pairs the boxes' start and end in view. */
	for (int f : p->flavours) {
		for (int lane = 0; lane < (ctx->tree ? 2 : 1); lane++) {
			for (int slow = 0; slow < 2; slow++) {
				int64_t key = boxKey(f, val, slow, lane);
				auto check = [key](kshark_data_container *c, ssize_t i) {
					return c->data[i]->field == key;
				};

				eventFieldIntervalPlot(argv, p->boxStarts, check, p->boxEnds, check,
						       intervalShape, slow ? slowColor : okColor, 1);
			}
		}
	}
	/* In flight at the end: red to the end of the trace. */
	for (auto &o : p->open) {
		if (o.first->cpu != val || o.first->ts > histo->max)
			continue;
		kshark_data_field_int64 *start = nullptr, *none = nullptr;

		kshark_data_container *from = boxLane(o.second) ? ctx->cpustarts : ctx->starts;

		for (ssize_t k = 0; k < from->size; k++) {
			if (from->data[k]->entry == o.first) {
				start = from->data[k];
				break;
			}
		}
		argv->_shapes->push_front(makeBox(graph, binOf(histo, graph, o.first->ts),
						  graph->size() - 1, { start, none }, slowColor,
						  boxLane(o.second)));
	}
	/* Kicks and FQS scans: short orange ticks; stall warnings: tall, dark red. */
	auto marks = p->marksByCPU.equal_range(val);
	for (auto it = marks.first; it != marks.second; ++it) {
		int64_t ts = it->second.first->ts;
		bool stall = it->second.second == RCU_POLL_MARK_STALL;

		if (ts < histo->min || ts > histo->max)
			continue;
		int x = graph->bin(binOf(histo, graph, ts))._base.x();
		Line *l = new Line(Point(x, base - h * 0.05),
				   Point(x, base - h * (stall ? 1.0 : 0.25)));
		l->_color = stall ? stallColor : kickColor;
		l->_size = stall ? 3 : 1;
		argv->_shapes->push_front(l);
	}
	auto ticks = p->qsByCPU.equal_range(val);
	for (auto it = ticks.first; it != ticks.second; ++it) {
		int64_t ts = it->second->ts;

		if (ts < histo->min || ts > histo->max)
			continue;
		int b = binOf(histo, graph, ts);
		Line *l = new Line(Point(graph->bin(b)._base.x(), base - h * 0.75),
				   Point(graph->bin(b)._base.x(), base - h * 0.95));
		l->_color = qsColor;
		argv->_shapes->push_front(l);
	}
	if (ctx->debug)
		fprintf(stderr, "rcu_poll plugin: stream %d CPU %d: %zu shapes drawn\n", sd, val,
			(size_t)std::distance(argv->_shapes->begin(), argv->_shapes->end()) - before);
}
