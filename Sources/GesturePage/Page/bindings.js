// The bindings view: the configuration's bindings as a list, a form for the
// one chosen (drawn from the reader's own form description, /api/configuration),
// every edit checked by the reader `check-config` uses (its errors shown at the
// field their key path names), and Save, which writes the file keeping the old
// one as a backup. The page decides nothing about what is valid: the server says.
import { post } from "/api.js";

const CHECK_DELAY_MS = 250;

/** A regular expression that matches exactly `text` (ICU's syntax, as the configuration's patterns are read). */
export function exactly(text) {
  return `^${text.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&")}$`;
}

/** A binding key's object and member: `fingers` is the binding's, `action.keys` its action's, `device.name` its device's. */
function place(binding, key, making = false) {
  const dot = key.indexOf(".");
  if (dot < 0) return { target: binding, member: key };
  const parent = key.slice(0, dot);
  if (making) binding[parent] ??= {};
  return { target: binding[parent], member: key.slice(dot + 1), parent };
}

export class BindingsView {
  /** `live`: the live view, whose devices the device field offers. */
  constructor(root, live) {
    this.root = root;
    this.live = live;
    this.windows = { source: null, reason: "", seen: [] };  // the applications the focus source reported (/api/live)
    this.list = root.querySelector("#binding-list");
    this.fields = root.querySelector("#binding-fields");
    this.formHeading = root.querySelector("#binding-form-heading");
    this.problems = root.querySelector("#config-problems");
    this.pathLine = root.querySelector("#config-path");
    this.status = root.querySelector("#save-status");
    this.saveButton = root.querySelector("#save-bindings");
    this.bindings = [];     // [{origin, binding}]
    this.selected = null;   // index in this.bindings
    this.check = { errors: [], warnings: [] };
    this.timer = null;
    root.querySelector("#add-binding").addEventListener("click", () => this.add());
    this.saveButton.addEventListener("click", () => this.save());
    root.querySelector("#binding-form").addEventListener("submit", (event) => event.preventDefault());
  }

  async load() {
    const response = await fetch("/api/configuration", { credentials: "same-origin" });
    const answer = await response.json();
    this.path = answer.path;
    if (answer.error) {
      this.pathLine.textContent = `${answer.path ?? "The configuration"}: ${answer.error}`;
      this.saveButton.disabled = true;
      return;
    }
    this.form = answer.form;
    this.revision = answer.revision;
    this.bindings = answer.bindings.map((binding, origin) => ({ origin, binding }));
    this.check = answer.check;
    this.pathLine.textContent = `${answer.path}${answer.exists ? "" : " (not written yet: Save makes it)"} · ${answer.format.toUpperCase()}`;
    this.selected = this.bindings.length ? 0 : null;
    this.render();
  }

  add() {
    this.bindings.push({ origin: null, binding: { gesture: "swipe", fingers: 3, action: { command: ["sh", "-c", ""] } } });
    this.selected = this.bindings.length - 1;
    this.render();
    this.scheduleCheck();
    this.fields.querySelector("select, input")?.focus();
  }

  move(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.bindings.length) return;
    [this.bindings[index], this.bindings[to]] = [this.bindings[to], this.bindings[index]];
    if (this.selected === index) this.selected = to; else if (this.selected === to) this.selected = index;
    this.render();
    this.scheduleCheck();
  }

  remove(index) {
    this.bindings.splice(index, 1);
    if (this.selected !== null && this.selected >= this.bindings.length) this.selected = this.bindings.length ? this.bindings.length - 1 : null;
    this.render();
    this.scheduleCheck();
  }

  summary(binding) {
    const parts = [binding.gesture ?? "?"];
    if (binding.fingers !== undefined) parts.push(`${binding.fingers} fingers`);
    for (const key of ["direction", "edge", "template", "sequence"]) if (binding[key]) parts.push(binding[key]);
    const action = binding.action ?? {};
    const does = action.command ? (action.command[0] === "sh" && action.command[1] === "-c" ? action.command[2] : action.command.join(" "))
      : action.keys ? `keys ${action.keys.join("+")}` : action.button ? `click ${action.button}` : action.drag ? `drag ${action.drag}` : "nothing";
    return `${parts.join(" ")} → ${does}`;
  }

  /** The errors and warnings whose key path is in binding `index`, with the rest of the path. */
  problemsOf(index) {
    const prefix = `bindings[${index}]`;
    const take = (list) => list.filter((p) => p.path === prefix || p.path.startsWith(prefix + ".") || p.path.startsWith(prefix + "["))
      .map((p) => ({ ...p, rest: p.path.slice(prefix.length).replace(/^\./, "") }));
    return { errors: take(this.check.errors), warnings: take(this.check.warnings) };
  }

  render() {
    this.renderList();
    this.renderForm();
    this.renderProblems();
  }

  renderList() {
    this.list.replaceChildren(...this.bindings.map((entry, index) => {
      const item = document.createElement("li");
      if (index === this.selected) item.className = "selected";
      const label = entry.binding.name ? `${entry.binding.name}: ` : "";
      const text = document.createElement("span");
      text.className = "summary";
      text.textContent = `${label}${this.summary(entry.binding)}`;
      const { errors, warnings } = this.problemsOf(index);
      item.append(text);
      if (errors.length || warnings.length) {
        const badge = document.createElement("span");
        badge.className = errors.length ? "badge error" : "badge warning";
        badge.textContent = errors.length ? `${errors.length} error${errors.length > 1 ? "s" : ""}` : `${warnings.length} warning${warnings.length > 1 ? "s" : ""}`;
        item.append(badge);
      }
      const name = entry.binding.name ?? `bindings[${index}]`;
      for (const [word, action] of [["Edit", () => { this.selected = index; this.render(); this.fields.querySelector("select, input")?.focus(); }],
        ["Up", () => this.move(index, -1)], ["Down", () => this.move(index, 1)], ["Delete", () => this.remove(index)]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = word;
        button.setAttribute("aria-label", `${word} ${name}`);
        button.addEventListener("click", action);
        item.append(button);
      }
      return item;
    }));
  }

  renderProblems() {
    const general = [...this.check.errors, ...this.check.warnings].filter((p) => !/^bindings\[\d+\]/.test(p.path));
    const others = this.bindings.flatMap((_, index) => index === this.selected ? [] : this.problemsOf(index).errors.map((p) => p));
    const lines = [...general, ...others].map((p) => `${p.path ? p.path + ": " : ""}${p.message}`);
    this.problems.replaceChildren(...lines.map((line) => { const p = document.createElement("p"); p.textContent = line; return p; }));
  }

  renderForm() {
    this.fields.replaceChildren();
    if (this.selected === null) {
      this.formHeading.textContent = "No binding yet: add one";
      return;
    }
    const entry = this.bindings[this.selected];
    const binding = entry.binding;
    this.formHeading.textContent = `bindings[${this.selected}]${binding.name ? ` (${binding.name})` : ""}`;
    const gesture = binding.gesture;
    const action = binding.action ?? {};
    const kind = this.form.actionKinds.find((k) => action[k] !== undefined) ?? "command";
    const { errors, warnings } = this.problemsOf(this.selected);
    const fields = [...this.form.fields];
    // The action's kind first among its fields.
    const firstAction = fields.findIndex((f) => f.key.startsWith("action."));
    fields.splice(firstAction, 0, { key: "action", label: "Action", entry: { kind: "choice", words: this.form.actionKinds }, gestures: null, help: "what the binding does" });
    for (const field of fields) {
      if (field.gestures && !field.gestures.includes(gesture)) continue;
      const actionKey = field.key.startsWith("action.") ? field.key.slice(7) : null;
      if (actionKey && this.form.actionKinds.includes(actionKey) && actionKey !== kind) continue;
      if (actionKey && kind !== "command" && actionKey === "timeoutSeconds") continue;
      const value = field.key === "action" ? kind : actionKey ? action[actionKey] : place(binding, field.key).target?.[place(binding, field.key).member];
      this.fields.append(this.fieldElement(field, value, gesture, errors, warnings));
    }
  }

  fieldElement(field, value, gesture, errors, warnings) {
    const id = `field-${field.key.replace(".", "-")}`;
    const wrapper = document.createElement("div");
    wrapper.className = "field";
    wrapper.dataset.key = field.key;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = field.label + (field.entry.unit ? ` (${field.entry.unit})` : "");
    let input;
    const entry = field.entry;
    if (entry.kind === "choice" || entry.kind === "flag") {
      input = document.createElement("select");
      const words = entry.kind === "flag" ? ["true", "false"] : entry.byGesture ? (entry.byGesture[gesture] ?? []) : entry.words;
      const choices = field.key === "gesture" || field.key === "action" ? words : ["", ...words];
      for (const word of choices) {
        const option = document.createElement("option");
        option.value = word;
        option.textContent = word === "" ? (entry.kind === "flag" ? "the default" : "any / none") : entry.kind === "flag" ? (word === "true" ? "yes" : "no") : word;
        input.append(option);
      }
      input.value = value === undefined ? "" : String(value);
    } else if (entry.kind === "patterns") {
      input = document.createElement("textarea");
      input.rows = 2;
      input.value = value === undefined ? "" : (Array.isArray(value) ? value : [value]).join("\n");
    } else {
      input = document.createElement("input");
      if (entry.kind === "integer" || entry.kind === "number") {
        input.type = "number";
        input.min = entry.minimum;
        input.max = entry.maximum;
        input.step = entry.kind === "integer" ? "1" : "any";
      } else {
        input.type = "text";
      }
      if (field.key === "action.command") {
        const shell = Array.isArray(value) && value.length === 3 && value[0] === "sh" && value[1] === "-c";
        input.value = value === undefined ? "" : shell ? value[2] : value.join(" ");
        if (!shell && Array.isArray(value)) { input.dataset.arguments = JSON.stringify(value); }
      } else if (field.key === "action.keys") {
        input.value = Array.isArray(value) ? value.join("+") : "";
      } else {
        input.value = value === undefined ? "" : String(value);
      }
    }
    input.id = id;
    input.name = field.key;
    const help = document.createElement("p");
    help.className = "field-help";
    help.id = `${id}-help`;
    help.textContent = field.help + (input.dataset.arguments ? " (written as arguments: editing makes it a shell command)" : "");
    const problem = document.createElement("p");
    problem.className = "field-problem";
    problem.id = `${id}-problem`;
    const mine = (p) => field.key === "action" ? p.rest === "action" : p.rest === field.key || p.rest.startsWith(field.key + "[") || p.rest.startsWith(field.key + ".");
    const here = [...errors.filter(mine).map((p) => ({ ...p, kind: "error" })), ...warnings.filter(mine).map((p) => ({ ...p, kind: "warning" }))];
    if (here.length) {
      problem.textContent = here.map((p) => `${p.path}: ${p.message}`).join(" ");
      problem.classList.add(here[0].kind);
      input.setAttribute("aria-invalid", here[0].kind === "error" ? "true" : "false");
    }
    input.setAttribute("aria-describedby", `${help.id} ${problem.id}`);
    input.addEventListener("change", () => this.edited(field, input));
    if (input.tagName !== "SELECT") input.addEventListener("input", () => this.edited(field, input, true));
    wrapper.append(label, input, help, problem);
    const offered = this.offers(field.key);
    if (offered) wrapper.append(this.pickerElement(field, input, id, offered));
    return wrapper;
  }

  /** What a field offers to pick from: the applications seen for `apps` and `notApps`, the devices for `device.name`. */
  offers(key) {
    if (key === "apps" || key === "notApps") {
      const words = this.windows.seen.map((seen) => seen.app);
      return { what: "application", words, none: this.windows.source ? `No window focused yet (${this.windows.reason})` : this.windows.reason || "No focus source" };
    }
    if (key === "device.name") {
      return { what: "device", words: [...new Set([...(this.live?.devices.values() ?? [])].map((device) => device.name))], none: "No device seen yet" };
    }
    return null;
  }

  /** A list of what was seen and an Add button, which writes the exact pattern of the one chosen into the field. */
  pickerElement(field, input, id, offered) {
    const picker = document.createElement("div");
    picker.className = "picker";
    const select = document.createElement("select");
    select.id = `${id}-pick`;
    select.setAttribute("aria-label", `Pick ${offered.what === "application" ? "an application seen" : "a device seen"} for ${field.label}`);
    if (offered.words.length === 0) select.append(new Option(offered.none, ""));
    for (const word of offered.words) select.append(new Option(word, word));
    const add = document.createElement("button");
    add.type = "button";
    add.id = `${id}-add`;
    add.textContent = offered.what === "application" ? "Add this application" : "Use this device";
    add.disabled = offered.words.length === 0;
    add.addEventListener("click", () => {
      if (!select.value) return;
      const pattern = exactly(select.value);
      if (field.entry.kind === "patterns") {
        const lines = input.value.split("\n").map((line) => line.trim()).filter((line) => line && line !== pattern);
        input.value = [...lines, pattern].join("\n");
      } else {
        input.value = pattern;
      }
      this.edited(field, input);
    });
    picker.append(select, add);
    return picker;
  }

  /** Takes the focus source's latest list; redraws the form when it shows a picker. */
  takeWindows(windows) {
    this.windows = windows;
    if (this.form && this.selected !== null && document.activeElement?.closest?.(".field") == null) this.renderForm();
  }

  /** Takes one field's new value into the chosen binding, then asks the reader. */
  edited(field, input, typing = false) {
    const entry = this.bindings[this.selected];
    const binding = entry.binding;
    const text = input.value;
    const { target, member: key, parent } = place(binding, field.key, true);
    if (field.key === "action") {
      const old = binding.action ?? {};
      const fresh = {};
      for (const k of ["phase", "every", "timeoutSeconds"]) if (old[k] !== undefined) fresh[k] = old[k];
      fresh[text] = text === "command" ? ["sh", "-c", ""] : text === "keys" ? [] : (this.form.fields.find((f) => f.key === `action.${text}`)?.entry.words ?? ["left"])[0];
      binding.action = fresh;
    } else if (text === "" && !(field.key === "action.command")) {
      delete target[key];
      if (parent && parent !== "action" && Object.keys(target).length === 0) delete binding[parent];
    } else if (field.entry.kind === "integer" || field.entry.kind === "number") {
      const number = Number(text);
      target[key] = Number.isFinite(number) ? number : text;
    } else if (field.entry.kind === "flag") {
      target[key] = text === "true";
    } else if (field.entry.kind === "patterns") {
      const lines = text.split("\n").map((l) => l.trim()).filter((l) => l);
      if (lines.length) target[key] = lines; else delete target[key];
    } else if (field.key === "action.command") {
      target[key] = ["sh", "-c", text];
    } else if (field.key === "action.keys") {
      target[key] = text.split("+").map((k) => k.trim()).filter((k) => k);
    } else {
      target[key] = text;
    }
    // A field that changes which others apply redraws the form; typing keeps the focus where it is.
    if (!typing && (field.key === "gesture" || field.key === "action" || field.key === "action.phase")) this.renderForm();
    this.renderListOnly();
    this.status.textContent = "Not saved yet.";
    this.scheduleCheck();
  }

  renderListOnly() {
    const items = this.list.querySelectorAll("li .summary");
    this.bindings.forEach((entry, index) => {
      if (items[index]) items[index].textContent = `${entry.binding.name ? `${entry.binding.name}: ` : ""}${this.summary(entry.binding)}`;
    });
  }


  scheduleCheck() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.runCheck(), CHECK_DELAY_MS);
  }

  async runCheck() {
    try {
      const answer = await post("/api/configuration/check", { bindings: this.bindings });
      this.check = answer.check;
      this.showProblems();
    } catch (error) {
      this.status.textContent = `Cannot check: ${error.message}`;
    }
  }

  /** Shows the reader's verdict without redrawing the field being typed in. */
  showProblems() {
    const focused = document.activeElement?.id;
    const { errors, warnings } = this.selected === null ? { errors: [], warnings: [] } : this.problemsOf(this.selected);
    for (const wrapper of this.fields.querySelectorAll(".field")) {
      const key = wrapper.dataset.key;
      const mine = (p) => key === "action" ? p.rest === "action" : p.rest === key || p.rest.startsWith(key + "[") || p.rest.startsWith(key + ".");
      const here = [...errors.filter(mine).map((p) => ({ ...p, kind: "error" })), ...warnings.filter(mine).map((p) => ({ ...p, kind: "warning" }))];
      const problem = wrapper.querySelector(".field-problem");
      const input = wrapper.querySelector("input, select, textarea");
      problem.textContent = here.map((p) => `${p.path}: ${p.message}`).join(" ");
      problem.className = `field-problem${here.length ? " " + here[0].kind : ""}`;
      input.setAttribute("aria-invalid", here.some((p) => p.kind === "error") ? "true" : "false");
    }
    // The list's badges and the problems no field shows.
    this.renderList();
    this.renderProblems();
    if (focused) document.getElementById(focused)?.focus();
  }

  async save() {
    this.status.textContent = "Saving…";
    try {
      const answer = await post("/api/configuration/save", { revision: this.revision, bindings: this.bindings });
      this.revision = answer.revision;
      this.check = answer.check;
      this.bindings = this.bindings.map((entry, origin) => ({ origin, binding: entry.binding }));
      const notes = answer.notes.length ? ` ${answer.notes.join("; ")}.` : "";
      this.status.textContent = `Saved ${answer.saved}${answer.backup ? ` (the old file is ${answer.backup})` : ""}; the daemon reloads it.${notes}`;
      this.render();
    } catch (error) {
      if (error.answer?.check) { this.check = error.answer.check; this.render(); }
      this.status.textContent = error.message;
    }
  }
}
