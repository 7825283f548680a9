// The second training worker's side of a step in shards (docs/training.md, "A step in shards"):
// a model of the trainer's configuration, its parameters from each request, and the gradients of
// its shard (or a held-out evaluation) sent back over the port. train-worker.js's shardPeer asks.

/**
 * Serves the requests { id, config, parameters, batch, stepTargets, evaluate } that come on
 * `port`, with the instance `core()` resolves to. Returns what stops it: the port closed and the
 * model freed. A request still waiting for the core when it stops makes no model and gets no answer.
 */
export function serveShards(core, port) {
  let model = null;
  let made = '';
  let stopped = false;
  port.onmessage = async ({ data }) => {
    const { id, config, parameters, batch, stepTargets, evaluate } = data;
    try {
      const rp = await core();
      if (stopped) return;
      const key = JSON.stringify(config);
      if (key !== made) {
        model?.dispose();
        model = null;
        model = rp.createModel(config);
        made = key;
      }
      model.setParameters(parameters);
      if (evaluate) {
        // The parameters' buffer goes back as it came, for the next request.
        port.postMessage({ id, result: model.evaluate(batch), vector: parameters }, [parameters.buffer]);
        return;
      }
      const result = model.shardGradients(batch, { stepTargets, out: parameters });
      port.postMessage({ id, result, vector: result.gradients }, [result.gradients.buffer]);
    } catch (error) {
      if (!stopped) port.postMessage({ id, error: error?.message ?? String(error) });
    }
  };
  return () => {
    stopped = true;
    port.onmessage = null;
    port.close();
    model?.dispose();
    model = null;
  };
}
