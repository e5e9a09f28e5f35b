import { z } from "zod";
import { type InferSchema, type ToolMetadata } from "xmcp";

export const schema = { a: z.number(), b: z.number() };
export const metadata: ToolMetadata = { name: "add", description: "Add two numbers" };

export default async function add({ a, b }: InferSchema<typeof schema>) {
  return { content: [{ type: "text", text: String(a + b) }] };
}
