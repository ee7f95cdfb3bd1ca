import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The settings page is a bundle of its own (the chat's App stays untouched): fixed names under
// dist/webview/settings, which the settings panel's HTML points at. Built after the chat's bundle,
// whose build empties dist/webview.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  plugins: [react()],
  base: "./",
  build: {
    outDir: fileURLToPath(new URL("../../../dist/webview/settings", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    cssCodeSplit: false,
    modulePreload: false,
    rollupOptions: {
      input: fileURLToPath(new URL("main.tsx", import.meta.url)),
      output: {
        entryFileNames: "settings.js",
        chunkFileNames: "[name].js",
        assetFileNames: (info) => (info.names?.some((n) => n.endsWith(".css")) ? "settings.css" : "[name][extname]"),
      },
    },
  },
});
