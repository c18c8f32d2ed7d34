// The site header is a web component with an open shadow root: its logo
// and navigation live only there.
customElements.define('sonnenhof-kopf', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `
      <style>
        header { display: flex; justify-content: space-between; align-items: center; padding: 16px 40px; background: #FFFBF2; border-bottom: 4px solid #2E7D4F; }
        nav a { color: #2E7D4F; margin-left: 20px; text-decoration: none; font-weight: 600; }
        img { display: block; }
      </style>
      <header>
        <a href="/de/" class="marke"><img src="/img/sonnenhof-logo.svg" width="220" height="56" alt="Sonnenhof Käserei"></a>
        <nav><a href="/de/kaese/">Käse</a><a href="/de/hof/">Hof</a><a href="/de/laden/">Hofladen</a></nav>
      </header>`;
  }
});
