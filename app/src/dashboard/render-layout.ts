/** The page shell, shared styles and small formatting helpers of the dashboard. */
import { type HtmlValue, html, SafeHtml } from "./escape-html.ts";

const CSS = `
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#24292f;color:#fff;padding:8px 16px}header a{color:#fff;text-decoration:none}
main{padding:16px;max-width:1100px}section{background:#fff;border:1px solid #d0d7de;border-radius:6px;margin:0 0 16px;padding:8px 16px}
h2{font-size:16px}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:4px 8px;border-top:1px solid #eaeef2;vertical-align:top}
.muted{color:#656d76}.pill{border-radius:10px;padding:0 8px;background:#eaeef2;font-size:12px}
.card{margin:4px 0}.deps a{margin-right:2px}:target{outline:2px solid #0969da}
.new>td:first-child{box-shadow:inset 3px 0 #0969da}.new>td:first-child::before{content:"new · ";color:#0969da;font-weight:600}
.open{background:#fff8c5}.approved,.done{background:#dafbe1}.rejected,.failed{background:#ffebe9}
form.gate{display:inline}form.who{float:right;margin:0}button{cursor:pointer;margin-left:4px}
.chart path{stroke:#0969da;stroke-width:2}.chart circle{fill:#0969da}.chart .axis{stroke:#8c959f}.chart text{font-size:11px;fill:#656d76}
pre{white-space:pre-wrap;margin:0}td,pre,code,.preview{overflow-wrap:anywhere}svg.chart{max-width:100%;height:auto}
@media (max-width:640px){main{padding:8px}section{padding:4px 8px}table,tbody,tr,td{display:block;width:auto}
tr{border-top:1px solid #eaeef2}td{border-top:none;padding:2px 4px}form.who{float:none}}`;

// Progressive enhancement only; the pages work without JS. Confirm before a rejection. On a
// goal page: mark rows newer than the person's last visit (kept in localStorage, set from the
// database clock), and take the page again whenever the server says the goal changed. The
// overview takes itself again whenever a goal the person may see moved.
const JS = `function bind(){document.querySelectorAll("form.gate").forEach(function(f){f.addEventListener("submit",function(e){
var b=e.submitter;if(b&&b.value==="reject"&&!confirm("Reject this gate?"))e.preventDefault();});});}
function mark(root,since){var n=0;if(!since)return 0;root.querySelectorAll("[data-at]").forEach(function(r){
if(r.getAttribute("data-at")>since){r.classList.add("new");n++;}});return n;}
bind();var g=document.getElementById("goal");
if(g){var key="loopx:seen:"+g.dataset.goal,seen=null,loaded=g.dataset.now;try{seen=localStorage.getItem(key);}catch(e){}
var n=mark(g,seen),note=document.getElementById("since");
if(note&&seen)note.textContent=n===0?"Nothing changed since your last visit.":n+" change"+(n===1?"":"s")+" since your last visit, marked new.";
try{localStorage.setItem(key,g.dataset.now);}catch(e){}
if(window.EventSource){var es=new EventSource(g.dataset.live);es.onopen=function(){document.body.setAttribute("data-live","open");};
es.addEventListener("changed",function(){fetch(location.href,{cache:"no-store"}).then(function(r){return r.text();}).then(function(t){
var fresh=new DOMParser().parseFromString(t,"text/html").getElementById("goal");if(!fresh)return;g.replaceWith(fresh);g=fresh;
var k=mark(g,loaded),s=document.getElementById("since");if(s&&k>0)s.textContent=k+" change"+(k===1?"":"s")+" since you opened this page, marked new.";
bind();try{localStorage.setItem(key,g.dataset.now);}catch(e){}});});}}
var ov=document.getElementById("overview");
if(ov&&window.EventSource){var eo=new EventSource(ov.dataset.live);eo.onopen=function(){document.body.setAttribute("data-live","open");};
eo.addEventListener("changed",function(){fetch(location.href,{cache:"no-store"}).then(function(r){return r.text();}).then(function(t){
var fresh=new DOMParser().parseFromString(t,"text/html").getElementById("overview");if(!fresh)return;ov.replaceWith(fresh);ov=fresh;bind();});});}`;

/** `signedInAs`: the readonly dashboard's person, shown with a way to sign out. */
export function page(title: string, body: HtmlValue, signedInAs: string | null = null): SafeHtml {
  const who = signedInAs
    ? html`<form class="who" method="post" action="/loopx/auth/logout">${signedInAs} <button type="submit">Sign out</button></form>`
    : "";
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · LoopX</title>
<style>${rawCss()}</style></head><body><header><a href="/loopx">LoopX</a> · ${title}${who}</header>
<main>${body}</main><script>${rawJs()}</script></body></html>`;
}

// Our own constants, never user text: the only SafeHtml built from a plain string.
const rawCss = (): SafeHtml => new SafeHtml(CSS);
const rawJs = (): SafeHtml => new SafeHtml(JS);

export function when(d: Date | null, now: Date): string {
  if (!d) return "—";
  const s = Math.round((d.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(s);
  const span =
    abs < 90 ? `${abs}s` : abs < 5400 ? `${Math.round(abs / 60)}m` : `${Math.round(abs / 3600)}h`;
  return s >= 0 ? `in ${span}` : `${span} ago`;
}

export { usd } from "@loopx/core";

export function section(title: string, empty: string, rows: SafeHtml[]): SafeHtml {
  return html`<section><h2>${title}</h2>${rows.length === 0 ? html`<p class="muted">${empty}</p>` : html`<table>${rows}</table>`}</section>`;
}
