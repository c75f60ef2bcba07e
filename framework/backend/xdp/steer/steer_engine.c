// SPDX-License-Identifier: BSD-2-Clause
/*
 * Steering, the engine's calls (include/xskf.h): rules by port, ids across ports, counters.
 * The table itself is steer.c's; the language steer_parse.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/xdp/xdp_state.h"
#include "core/engine.h"
#include "backend/xdp/steer/steer.h"

int xskf_engine__steer_add(struct xskf_engine *eng, int port, const char *rule, char *err,
			   size_t err_len)
{
	char dummy[8], msg[320];
	unsigned int i, first, last, id, done;
	struct xskf_steer_rule r;
	int ret = 0;

	if (!err || !err_len) {
		err = dummy;
		err_len = sizeof(dummy);
	}
	err[0] = 0;
	if (!eng || port >= (int)eng->nr_ports || (port < 0 && !eng->nr_ports)) {
		snprintf(err, err_len, "steer rule '%s': no such port", rule ? rule : "");
		return -ENOENT;
	}
	ret = xskf_steer__parse(rule, &r, err, err_len);
	if (ret)
		return ret;
	first = port < 0 ? 0 : (unsigned int)port;
	last = port < 0 ? eng->nr_ports - 1 : (unsigned int)port;
	id = r.is_default ? 0 : eng->steer_next_id + 1;
	for (i = first, done = 0; i <= last; i++, done++) {
		ret = xskf_steer__add(eng, &eng->ports[i], rule, id, false, msg, sizeof(msg));
		if (ret)
			break;
	}
	if (ret) {
		snprintf(err, err_len, "%s", msg);
		/* all ports or none: take it back where it went in (a default stays: it replaced)
		 */
		for (i = first; id && done; i++, done--)
			xskf_steer__del(eng, &eng->ports[i], id, NULL);
		return ret;
	}
	if (id)
		eng->steer_next_id = id;
	return (int)id;
}

int xskf_engine__steer_del(struct xskf_engine *eng, unsigned int id, uint64_t *hits)
{
	unsigned int i, found = 0;
	uint64_t h, sum = 0;
	int err;

	if (!eng || !id)
		return -ENOENT;
	for (i = 0; i < eng->nr_ports; i++) {
		err = xskf_steer__del(eng, &eng->ports[i], id, &h);
		if (err == -ENOENT)
			continue;
		if (err)
			return err;
		found++;
		sum += h;
	}
	if (hits)
		*hits = sum;
	return found ? 0 : -ENOENT;
}

int xskf_engine__steer_keep_host(struct xskf_engine *eng, int port)
{
	unsigned int i;

	if (!eng || port >= (int)eng->nr_ports)
		return -ENOENT;
	if (eng->started)
		return -EBUSY;
	for (i = 0; i < eng->nr_ports; i++)
		if (port < 0 || i == (unsigned int)port)
			eng->ports[i].steer.keep_host = true;
	return 0;
}

int xskf_engine__steer_udp(struct xskf_engine *eng, unsigned int port, uint16_t dport)
{
	char rule[32];
	int ret;

	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	if (eng->started)
		return -EBUSY;
	if (!dport)
		return 0;
	snprintf(rule, sizeof(rule), "udp dport %u xsk", dport);
	ret = xskf_engine__steer_add(eng, (int)port, rule, NULL, 0);
	return ret < 0 ? ret : 0;
}

int xskf_engine__steer_rule(struct xskf_engine *eng, unsigned int port, unsigned int idx,
			    struct xskf_steer_info *info)
{
	const struct xskf_steer_entry *e = NULL;
	struct xskf_steer *st;
	unsigned int i, pos = 0, pass, k;

	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	if (!info || info->sz < sizeof(*info))
		return -EINVAL;
	st = &eng->ports[port].steer;
	memset((char *)info + sizeof(info->sz), 0, sizeof(*info) - sizeof(info->sz));
	if (idx > st->n)
		return -ENOENT;
	/* matching order: every rule, then the --keep-host ones (steer.c's write_table()) */
	for (pass = 0; pass < 2 && !e; pass++)
		for (i = 0; i < st->n && !e; i++)
			if (st->e[i].keep_host == (pass == 1) && pos++ == idx)
				e = &st->e[i];
	info->pos = idx;
	if (!e) {
		struct xskf_steer_rule d = st->def;

		d.is_default = true;
		xskf_steer__format(&d, info->text, sizeof(info->text));
		for (k = 0; k < eng->ports[port].nr_queues; k++)
			info->hits += xskf_steer__hits(
			    &eng->ports[port], XSKF_STEER_MAX_RULES + eng->ports[port].queues[k]);
		return 0;
	}
	info->id = e->id;
	info->keep_host = e->keep_host;
	snprintf(info->text, sizeof(info->text), "%s", e->text);
	info->hits = xskf_steer__hits(&eng->ports[port], e->slot);
	return 0;
}

int xskf_engine__steer_stats(struct xskf_engine *eng, unsigned int port, uint32_t queue,
			     struct xskf_steer_stats *st)
{
	struct xskf_steer_qstats q;
	int err;

	if (!eng || port >= eng->nr_ports)
		return -ENOENT;
	if (!st || st->sz < sizeof(*st))
		return -EINVAL;
	err = xskf_steer__qstats(&eng->ports[port], queue, &q);
	if (err)
		return err;
	st->seen = q.seen;
	st->xsk = q.xsk;
	st->pass = q.pass;
	st->cpumap = q.cpumap;
	st->drop = q.drop;
	return 0;
}
