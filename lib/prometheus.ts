import type * as PromClient from "prom-client";
import counter from "prom-client/lib/counter.js";
import gauge from "prom-client/lib/gauge.js";
import registry from "prom-client/lib/registry.js";

// The three classes of prom-client we use, from their own files: its index also loads its
// default metrics (and with them OpenTelemetry's API, about 60 modules), the cluster aggregator
// and the Pushgateway (node:http, https, zlib), which a process holds for its life and never runs
// (issue 34, idle memory). The files have no typings of their own: they are the index's classes.

/** prom-client's `Registry`. */
export const Registry = registry as typeof PromClient.Registry;
export type Registry = PromClient.Registry;
/** prom-client's `Counter`. */
export const Counter = counter as typeof PromClient.Counter;
export type Counter<T extends string = string> = PromClient.Counter<T>;
/** prom-client's `Gauge`. */
export const Gauge = gauge as typeof PromClient.Gauge;
export type Gauge<T extends string = string> = PromClient.Gauge<T>;
