import { createTestOffer, makeTestApp } from "./helpers.ts";
const t = await makeTestApp();
const offer = await createTestOffer(t);
for (let round = 0; round < 3; round++) {
  const t0 = performance.now();
  const N = 2000;
  let inflight = 0;
  let done = 0;
  await new Promise<void>((resolve) => {
    const launch = () => {
      inflight++;
      t.request("POST", "/api/v1/payments", { qrId: offer.qrId }).then((r) => r.text()).then(() => {
        inflight--;
        done++;
        if (done === N) resolve();
        else if (done + inflight < N) launch();
      });
    };
    for (let i = 0; i < 32; i++) launch();
  });
  console.log("32-concurrent POST µs/op", ((performance.now() - t0) * 1000 / N).toFixed(1));
}
await t.close();
