import { defineConfig } from "vitest/config";

// One workbench for all browser tests: it takes 10-15 s to start on two cores.
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
