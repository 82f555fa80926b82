/** @module console/main: the SPA's entry: the stylesheet and the app mounted on #app. */
import { render } from 'preact';
import './styles.css';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
