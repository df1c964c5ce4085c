#!/usr/bin/env node
// A cardtable bot in JavaScript (Node, no packages): it plays a random legal action.
// Protocol 1 (docs/bot-protocol.md): one JSON object per line on stdin and stdout.
// Try it:  cardtable bot-check "node examples/bots/random_bot.js" wizard
"use strict";
const readline = require("readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const lines = readline.createInterface({ input: process.stdin });

lines.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "ready", name: "random.js", protocol: 1 });
      break;
    case "act":
      send({ type: "action", id: message.id, index: Math.floor(Math.random() * message.legal.length) });
      break;
    case "quit":
      process.exit(0);
  }
});
