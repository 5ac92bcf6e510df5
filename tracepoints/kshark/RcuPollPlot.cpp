// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for rcu_poll, drawing side: each batch is a bar on
 * the graph of the CPU that started it, from batch start to batch end
 * (green, or red past 10 ms), and each quiescent-state observation is a
 * tick on the graph of the CPU that was observed.  A stuck batch is a
 * long red bar; the CPU holding it is the one whose tick comes last.
 */
#include <unordered_map>
#include <vector>

#include "rcu_poll_ks.h"
#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"

using namespace KsPlot;

struct Interval {
	kshark_entry *start;
	kshark_entry *end;
};

/* Batch intervals by the CPU that ran the batch; ticks by observed CPU. */
static std::unordered_multimap<int, Interval> batchesByCPU;
static std::unordered_multimap<int, kshark_entry *> qsByCPU;

#define SLOW_NS		10000000LL

/* Pair each start with the first end of the same batch number after it. */
static void pairBatches(plugin_rcu_poll_context *ctx)
{
	std::unordered_map<int64_t, kshark_entry *> open;
	kshark_data_field_int64 **s = ctx->starts->data, **e = ctx->ends->data;
	size_t i = 0, j = 0, ns = ctx->starts->size, ne = ctx->ends->size;

	kshark_data_container_sort(ctx->starts);
	kshark_data_container_sort(ctx->ends);
	kshark_data_container_sort(ctx->qs);
	batchesByCPU.clear();
	qsByCPU.clear();
	while (i < ns || j < ne) {
		if (i < ns && (j == ne || s[i]->entry->ts <= e[j]->entry->ts)) {
			open[s[i]->field] = s[i]->entry;
			i++;
		} else {
			auto it = open.find(e[j]->field);

			if (it != open.end()) {
				batchesByCPU.emplace(it->second->cpu, Interval{it->second, e[j]->entry});
				open.erase(it);
			}
			j++;
		}
	}
	/* Batches still in flight at the end of the trace: stuck, or cut off. */
	for (auto &o : open)
		batchesByCPU.emplace(o.second->cpu, Interval{o.second, nullptr});
	for (ssize_t k = 0; k < ctx->qs->size; k++)
		qsByCPU.emplace(ctx->qs->data[k]->field, ctx->qs->data[k]->entry);
	ctx->paired = true;
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

static Rectangle *bar(Graph *graph, int b0, int b1, int y, int h, const Color &c)
{
	Rectangle *r = new Rectangle;
	int x0 = graph->bin(b0)._base.x(), x1 = graph->bin(b1)._base.x();

	if (x1 < x0 + 2)
		x1 = x0 + 2;
	r->setPoint(0, x0, y);
	r->setPoint(1, x0, y - h);
	r->setPoint(2, x1, y - h);
	r->setPoint(3, x1, y);
	r->setFill(true);
	r->_color = c;
	return r;
}

extern "C" void draw_rcu_poll(struct kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	plugin_rcu_poll_context *ctx = __get_context(sd);
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	kshark_trace_histo *histo = argv->_histo;
	Graph *graph = argv->_graph;
	int base, h;

	if (!ctx || !(draw_action & KSHARK_CPU_DRAW) || graph->size() == 0)
		return;
	if (!ctx->paired)
		pairBatches(ctx);
	base = graph->bin(0)._base.y();
	h = graph->height();

	auto batches = batchesByCPU.equal_range(val);
	for (auto it = batches.first; it != batches.second; ++it) {
		const Interval &iv = it->second;
		int64_t t1 = iv.end ? iv.end->ts : histo->max;
		bool slow = !iv.end || t1 - iv.start->ts > SLOW_NS;

		if (t1 < histo->min || iv.start->ts > histo->max)
			continue;
		argv->_shapes->push_front(bar(graph, binOf(histo, graph, iv.start->ts),
					      binOf(histo, graph, t1), base - h * 0.55, h * 0.2,
					      slow ? Color(220, 30, 30) : Color(40, 170, 60)));
	}
	auto ticks = qsByCPU.equal_range(val);
	for (auto it = ticks.first; it != ticks.second; ++it) {
		int64_t ts = it->second->ts;

		if (ts < histo->min || ts > histo->max)
			continue;
		int b = binOf(histo, graph, ts);
		Line *l = new Line(Point(graph->bin(b)._base.x(), base - h * 0.75),
				   Point(graph->bin(b)._base.x(), base - h * 0.95));
		l->_color = Color(30, 60, 200);
		argv->_shapes->push_front(l);
	}
}
