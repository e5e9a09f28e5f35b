import { z } from "zod";
import { type InferSchema, type ToolExtraArguments, type ToolMetadata } from "xmcp";

export const schema = { n: z.number().int() };
export const metadata: ToolMetadata = {
  name: "slow_count",
  description: "Count to n, 0.1 s a step, a notifications/progress per step when the request has a progressToken",
};

export default async function slow_count({ n }: InferSchema<typeof schema>, extra: ToolExtraArguments) {
  const token = extra._meta?.progressToken;
  for (let i = 1; i <= n; i++) {
    await new Promise((r) => setTimeout(r, 100));
    if (token !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress: i, total: n, message: `step ${i}` },
      });
    }
  }
  return { content: [{ type: "text", text: `counted to ${n}` }] };
}
